"""What `/rules` fills its explanations with."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import time

from bot.rules.settings import RuleSettings


@dataclass(frozen=True)
class LeagueTerms:
    """What `/rules` fills its explanations with: this league's numbers."""

    settings: RuleSettings
    groupings_time: time
    lock_time: time
