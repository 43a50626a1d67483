"""The league's rules, the one place every number comes from (RULES.md R1-R13).

This is the public face of `bot.rules`: services, cogs and the commissioner's
tools import from here. Everything is pure: no discord, no database, no
files, no network, no clock.
"""

from bot.rules.calendar import league_nights, notice_timing, playoff_night, weekday_number
from bot.rules.divisions import form_divisions, has_divisions, qualifies_for_a, split_divisions
from bot.rules.errors import MissingScoresError, RuleError, TiedScoresError
from bot.rules.exact import ZERO, PlayerKey, exact, from_text, shown, to_text, total
from bot.rules.games import (
    MAX_SCORE,
    check_score,
    default_par,
    finishing_order,
    game_points,
    normalize,
)
from bot.rules.groups import (
    Movement,
    cut_groups,
    group_sizes,
    movement,
    next_groups,
    seed_groups,
    skill_order,
)
from bot.rules.league_night import NightOutcome, score_night
from bot.rules.match import (
    bonus_applies,
    match_bonus,
    match_order,
    multiplier_after,
    next_multiplier,
)
from bot.rules.money import (
    PayoutCandidate,
    payout_candidate,
    season_prizes,
    split_dues,
    weekly_payout,
)
from bot.rules.night import (
    LIVE,
    PRE_MAKEUP,
    ZERO_POINT,
    ZERO_POINT_LIMIT,
    GameNight,
    GameResult,
    GroupNight,
    GroupResult,
    PlayerNight,
    missed_game,
    pre_makeup_nights_left,
    score_group_night,
)
from bot.rules.penalties import SCORE_CHANGES, changed_score
from bot.rules.picks import PickResolution, pick_kind, resolve_games, resolve_picks
from bot.rules.settings import DEFAULT_SETTINGS, PrizeSplit, RuleSettings
from bot.rules.standings import (
    PlayoffField,
    SeasonLine,
    Standing,
    first_game_order,
    next_game_order,
    playoff_field,
    playoff_spots,
    replace_no_shows,
    season_standings,
)

__all__ = [
    "DEFAULT_SETTINGS",
    "LIVE",
    "MAX_SCORE",
    "PRE_MAKEUP",
    "SCORE_CHANGES",
    "ZERO",
    "ZERO_POINT",
    "ZERO_POINT_LIMIT",
    "GameNight",
    "GameResult",
    "GroupNight",
    "GroupResult",
    "MissingScoresError",
    "Movement",
    "NightOutcome",
    "PayoutCandidate",
    "PickResolution",
    "PlayerKey",
    "PlayerNight",
    "PlayoffField",
    "PrizeSplit",
    "RuleError",
    "RuleSettings",
    "SeasonLine",
    "Standing",
    "TiedScoresError",
    "bonus_applies",
    "changed_score",
    "check_score",
    "cut_groups",
    "default_par",
    "exact",
    "finishing_order",
    "first_game_order",
    "form_divisions",
    "from_text",
    "game_points",
    "group_sizes",
    "has_divisions",
    "league_nights",
    "match_bonus",
    "match_order",
    "missed_game",
    "movement",
    "multiplier_after",
    "next_game_order",
    "next_groups",
    "next_multiplier",
    "normalize",
    "notice_timing",
    "payout_candidate",
    "pick_kind",
    "playoff_field",
    "playoff_night",
    "playoff_spots",
    "pre_makeup_nights_left",
    "qualifies_for_a",
    "replace_no_shows",
    "resolve_games",
    "resolve_picks",
    "score_group_night",
    "score_night",
    "season_prizes",
    "season_standings",
    "seed_groups",
    "shown",
    "skill_order",
    "split_divisions",
    "split_dues",
    "to_text",
    "total",
    "weekday_number",
    "weekly_payout",
]
