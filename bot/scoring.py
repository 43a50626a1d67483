"""The league's rules, the one place every number comes from (docs/rules.md, R1-R13).

This is the public face of `bot.rules`: services, cogs and the commissioner's
tools import from here. Everything is pure: no discord, no database, no
files, no network, no clock.
"""

from bot.rules.calendar import (
    WEEKDAYS,
    league_nights,
    notice_timing,
    playoff_night,
    weekday_number,
)
from bot.rules.divisions import form_divisions, has_divisions, qualifies_for_a, split_divisions
from bot.rules.errors import MissingScoresError, RuleError, TiedScoresError
from bot.rules.exact import ZERO, PlayerKey, exact, shown, total
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
    with_newcomers,
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
from bot.rules.picks import (
    PickResolution,
    filled_game_numbers,
    pick_kind,
    pick_order,
    resolve_games,
    resolve_picks,
)
from bot.rules.ranks import UNRANKED, lowest_rank_first, rank_of
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
    "UNRANKED",
    "WEEKDAYS",
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
    "filled_game_numbers",
    "finishing_order",
    "first_game_order",
    "form_divisions",
    "game_points",
    "group_sizes",
    "has_divisions",
    "league_nights",
    "lowest_rank_first",
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
    "pick_order",
    "playoff_field",
    "playoff_night",
    "playoff_spots",
    "pre_makeup_nights_left",
    "qualifies_for_a",
    "rank_of",
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
    "total",
    "weekday_number",
    "weekly_payout",
    "with_newcomers",
]
