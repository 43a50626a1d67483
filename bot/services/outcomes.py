"""What services return for the bot to show: frozen dataclasses, no behaviour.

Services build these and `bot/ui` renders them. This module and
`bot.services.errors` are the only parts of `bot.services` that `bot/ui` may
import (tests/test_layers.py): they hold data and error types, import nothing
of the project but `bot.models` and `bot.scoring`, and call no service.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time
from fractions import Fraction
from zoneinfo import ZoneInfo

from bot.models import (
    AuditEntry,
    Game,
    Group,
    Machine,
    Night,
    NightResult,
    Notice,
    OutboxItem,
    Player,
    PreMakeup,
    Score,
)
from bot.rules.settings import RuleSettings
from bot.rules.stats import HighScore, Improvement, MachineStats, PlayerStats


@dataclass(frozen=True)
class PickList:
    night: Night
    kind: str  # veto, repeat, none (R4.2)
    needed: int  # k = |P - games| for each group
    picks: list[str]  # the player's picks in preference order


@dataclass(frozen=True)
class LockedGroup:
    group: Group
    week: int
    label: str
    games: list[str]  # machine names, game 1 first
    kind: str
    applied: list[str]
    filled: list[str]  # applied by the bot in machine order (R4.5)
    newly_locked: bool = True  # False: the night was locked before this call
    day: date | None = None  # the night's date
    play_order: tuple[str, ...] = ()  # game 1: the lowest rank starts (R11.2); absent left out
    absent: tuple[tuple[str, tuple[MissedGame, ...]], ...] = ()  # R3.2: each absent player's games


@dataclass(frozen=True)
class GroupView:
    label: str
    players: list[str]  # ladder order
    play_order: list[str]  # game 1: the lowest rank starts, the highest plays last
    games: list[tuple[int, str]]  # (number, machine) once picks are locked


@dataclass(frozen=True)
class WeekView:
    night: Night
    groups: list[GroupView]
    pick_kind: str  # veto, repeat or none (R4.2)
    picks_needed: int
    owes_pre_makeups: dict[str, list[str]]  # player -> working machines still owed (R3.1)
    lock_time: time  # when picks lock (a league setting)
    late_cutoff: time  # the same-day late-notice cutoff (R2.1)


@dataclass(frozen=True)
class ScoreView:
    score: Score
    player: Player
    game: Game
    night: Night
    group_label: str
    photo: bool = False  # the league keeps a photo of the score display with it


@dataclass(frozen=True)
class PhotoPost:
    """A score's photo as the approvals channel shows it (the league's cleaned
    copy): whose score, on which game, and the file."""

    view: ScoreView
    file_name: str  # "week-3-group-2-game-4-alice.jpg"
    data: bytes = field(repr=False)


@dataclass(frozen=True)
class StandingRow:
    rank: int
    player: Player
    division: str  # '' before divisions, else 'A' or 'B'
    league_points: int
    tns: Fraction  # exact (R6.1 Decision); round only to show
    nights: int
    multiplier: int  # carried into the next night (R7.4)


@dataclass(frozen=True)
class TonightScore:
    """One score a player submitted tonight and where it stands."""

    game: int
    machine: str
    score: int
    status: str  # pending, approved, rejected
    reason: str | None = None  # the commissioner's, when rejected (shown only to the player)


@dataclass(frozen=True)
class PlayerSeason:
    player: Player
    rank: int
    nights: int
    league_points: int
    tns: Fraction  # exact (R6.1 Decision); round only to show
    multiplier: int
    pre_makeup_nights_used: int
    pre_makeup_nights_left: int
    dues_paid_cents: int
    dues_owed_cents: int  # R10.1: dues for nights held so far, less what was paid
    weeks: list[tuple[int, int, int, str]]  # (week, match points, league points, result)
    tonight: list[TonightScore] = field(default_factory=list)  # today's night, if any


@dataclass(frozen=True)
class PlayoffDivision:
    division: str
    qualifiers: list[str]
    alternates: list[str]


@dataclass(frozen=True)
class NoticeLine:
    """One late notice or absence, as the cutoff post lists it (R2.1-R2.2)."""

    player: str
    kind: str  # late or absent
    minutes: int | None


@dataclass(frozen=True)
class CutoffPost:
    """The late-notice cutoff has passed (R2.1-R2.2)."""

    week: int
    cutoff: time
    grace_until: time
    notices: list[NoticeLine]


@dataclass(frozen=True)
class GracePost:
    """The grace period is over (R2.3): who has sent no notice and no score."""

    week: int
    grace_until: time
    missing: list[str]  # player names, group by group


@dataclass(frozen=True)
class GroupingsPost:
    """The week's groups, games and play order (R8, R11.2)."""

    view: WeekView


@dataclass(frozen=True)
class LockPost:
    """Picks are locked: each group's games (R4)."""

    week: int
    groups: list[LockedGroup]


@dataclass(frozen=True)
class SkippedPost:
    """The commissioner skipped this date (R1.2)."""

    day: date


@dataclass(frozen=True)
class Post:
    """A scheduled post that is due: its claim key and what it says."""

    key: str
    kind: str  # groupings, cutoff, lock or grace
    content: CutoffPost | GracePost | GroupingsPost | LockPost | SkippedPost
    late: bool  # posted after its time because the bot was offline then
    at: time  # when it was due
    day: date  # the league day it belongs to


@dataclass(frozen=True)
class GameFinish:
    """One player's line in a finalized game (R5): placed by `score`."""

    player: str  # the player's name
    score: int  # the score placed by (0 under the Zero Point Rule, R3.4)
    points: int
    source: str  # live, pre_makeup, zero_point or zero_point_limit (R3)


@dataclass(frozen=True)
class GameLine:
    number: int
    machine: str
    finish: list[GameFinish]  # winner first


@dataclass(frozen=True)
class GroupSummary:
    label: str
    rows: list[tuple[str, NightResult]]  # (player name, result), winner first
    games: list[GameLine]


@dataclass(frozen=True)
class NightSummary:
    night: Night
    groups: list[GroupSummary]
    payouts: dict[str, int]  # player name -> cents (R10.2)
    pot_cents: int
    next_groups: list[tuple[str, list[str]]]  # (label, player names) for next week
    divisions_formed: bool
    newly_finalized: bool = False  # False: it was final before this call


@dataclass(frozen=True)
class MissedGame:
    number: int | None  # None while the night's games are not resolved yet
    machine: str
    pre_makeup: int | None  # the pre-makeup score on the machine, if any
    counts: bool  # False: the Zero Point Rule gives 0 points (R3.4, or R3.6 past the limit)


@dataclass(frozen=True)
class NoticeGiven:
    notice: Notice
    player: Player
    night: Night
    late_cutoff: time  # R2.1, the league's setting
    grace_until: time  # R2.2, the league's setting
    missed: list[MissedGame]  # the games missed if absent: game by game (R3.2, R3.4)
    pre_makeup_nights_left: int  # R3.5, before this night
    zero_point_everywhere: bool  # R3.6: no pre-makeup nights left
    lock_time: time  # when the night's games are set (a league setting)


@dataclass(frozen=True)
class NoticeWithdrawn:
    player: Player
    night: Night
    kind: str  # late, absent


@dataclass(frozen=True)
class WithdrawnNotice:
    """A late notice or absence withdrawn because its date has no league night."""

    player: Player
    kind: str  # late, absent
    day: date  # the date it was given for


@dataclass(frozen=True)
class DateSkipped:
    """What skipping a date did (R1.2), for the commissioner and the players."""

    day: date
    reason: str
    nights: list[Night]  # the season's nights with their new dates
    withdrawn: list[WithdrawnNotice]  # given for the skipped date
    kept: int  # live notices for later dates, still with their dates
    stranded: list[WithdrawnNotice]  # for a later date left with no night (not expected)


@dataclass(frozen=True)
class AuditTrail:
    entries: list[AuditEntry]  # newest first
    zone: ZoneInfo  # the league's, to show when each change was made (R1.3)


@dataclass(frozen=True)
class PrizeShare:
    player: str
    place: int  # 1, 2, 3 …; 0 for the consolation prize (R10.4)
    cents: int


@dataclass(frozen=True)
class SeasonPrizes:
    """R10.4: the season prize fund and each player's share by the standings."""

    fund_cents: int
    divisions: dict[str, list[PrizeShare]]  # '' before divisions, else 'A' and 'B'
    final: bool = False  # the standings after the last regular-season night


@dataclass(frozen=True)
class ParSet:
    """A machine's par after the commissioner set it (R6.1-R6.2)."""

    machine: Machine
    effective: int | None  # the par that applies now; None: no par and no pre-makeup yet


@dataclass(frozen=True)
class PreMakeupView:
    """A pre-makeup score with who played it, where, and who was there (R3.1)."""

    pre_makeup: PreMakeup
    player: Player
    machine: Machine
    witnesses: list[Player]


@dataclass(frozen=True)
class Approval:
    """A score or a pre-makeup score as it stands, and who decided it
    (`decider`: their player name; None: not a league player, or undecided)."""

    score: ScoreView | None
    pre_makeup: PreMakeupView | None
    decider_id: int | None
    decider: str | None


@dataclass(frozen=True)
class NoticeRecord:
    """A late notice or absence as stored, for the commissioner's post about it."""

    notice: Notice
    player: Player
    night: Night


@dataclass(frozen=True)
class DeliveryStatus:
    """The outbox: what waits to be sent, what was refused for good."""

    waiting: list[OutboxItem]
    failed: list[OutboxItem]
    delivered: int
    schema: int  # the database's schema version
    weeks: dict[int, int] = field(default_factory=dict)  # night id -> its week, for words


@dataclass(frozen=True)
class Resent:
    """`/league admin resend`: the failed posts owed again, and the week whose
    results are posted again (None: no week asked)."""

    requeued: list[OutboxItem]
    night: Night | None


@dataclass(frozen=True)
class PlayerStatsView:
    """`/stats`: one player's season, names not ids."""

    season: str
    stats: PlayerStats[str]


@dataclass(frozen=True)
class MachineView:
    """`/machine`: a machine's season."""

    season: str
    stats: MachineStats[str]
    par: int | None  # the commissioner's par, else the pre-makeup median (R6.2)
    par_set: bool  # False: `par` is the median of pre-makeups, or None


@dataclass(frozen=True)
class SeasonSummary:
    """The post after the last regular-season night."""

    season: str
    champions: dict[str, str]  # division ('' without divisions) -> player
    fund_cents: int  # R10.1: the season prize fund
    weekly_payouts_cents: int  # R10.2: paid out on the nights
    prizes: dict[str, list[PrizeShare]]  # R10.4, by the final standings
    high_scores: list[tuple[str, HighScore[str]]]  # machine, its best played score
    most_improved: Improvement[str] | None


@dataclass(frozen=True)
class RosterChange:
    """A new season's players next to the last season's."""

    previous: str | None  # the previous season's name
    new: list[str]  # added since the previous season started
    gone: list[str]  # in the previous season's groups, removed since


@dataclass(frozen=True)
class PointsByWeek:
    """The standings and each player's league points by finalized week."""

    rows: list[StandingRow]
    weeks: list[int]
    points: dict[int, dict[int, int]]  # player id -> week -> league points


@dataclass(frozen=True)
class Pot:
    week: int
    dues_cents: int
    pot_cents: int  # R10.1: half of the night's dues
    fund_cents: int  # the other half
    recomputed: bool = False  # the night was final: its payout was recomputed


@dataclass(frozen=True)
class DuesRecorded:
    pot: Pot
    paid: list[tuple[str, int]]  # (player's name, cents), in the order given


@dataclass(frozen=True)
class PlayerDues:
    name: str
    paid_cents: int  # this season, up to the week
    owed_cents: int  # dues of the nights they played up to the week, not recorded


@dataclass(frozen=True)
class MoneySummary:
    week: int
    pot_cents: int  # R10.1: half of the week's dues
    fund_cents: int  # the season prize fund, as it stands
    players: list[PlayerDues]


@dataclass(frozen=True)
class Cents:
    """An amount of money in an export: written in dollars, two decimals."""

    cents: int


ExportValue = str | int | Cents | date | datetime | None  # bool is written yes/no


@dataclass(frozen=True)
class ExportTable:
    """One CSV file of a season's export: `name`.csv with a header row.
    Times are in the league's time zone; names, never database ids."""

    name: str
    columns: tuple[str, ...]
    rows: tuple[tuple[ExportValue, ...], ...]


@dataclass(frozen=True)
class ExportPhoto:
    """A score's photo in an export: the league's copy, under `name`
    ("photos/week-3-group-2-game-4-alice.jpg", what scores.csv names)."""

    score_id: int
    name: str
    size: int


@dataclass(frozen=True)
class SeasonExport:
    league: str
    season: str
    tables: tuple[ExportTable, ...]
    photos: tuple[ExportPhoto, ...] = ()

    def table(self, name: str) -> ExportTable:
        return next(t for t in self.tables if t.name == name)


@dataclass(frozen=True)
class RosterImported:
    """The players a roster file added; `restored`: welcomed back;
    `left_out`: rows an export marked removed."""

    added: tuple[Player, ...]
    restored: tuple[str, ...]
    left_out: tuple[str, ...] = ()


# --- approval cards ---------------------------------------------------------

WAITING, APPROVED, REJECTED, MISSING = "pending", "approved", "rejected", "missing"


@dataclass(frozen=True)
class CardLine:
    """One player's score on one game (or one machine's pre-makeup) as it stands:
    the live score, else the last rejected one (with the reason), else missing."""

    player: str
    score: int | None
    state: str  # pending, approved, rejected, missing
    reason: str | None = None
    value: str = ""  # what the reject menu answers for it ('s12', 'p3')
    by: int | None = None  # who submitted it, when not the player (a Discord id)
    note: str = ""  # a pre-makeup's: who was there ("with Bob")
    photo: CardPhoto | None = None  # a photo of the score display


@dataclass(frozen=True)
class CardPhoto:
    """A score's photo on its card: the league's copy, posted in the approvals
    channel (`message_id`; None while its post is still owed), or for a score sent
    before copies were kept, Discord's own link, which may have expired."""

    message_id: int | None = None
    old_link: str | None = None


@dataclass(frozen=True)
class CardGame:
    label: str  # "Game 2 · Medieval Madness", or a machine's name
    lines: list[CardLine]
    value: str = ""  # what the approve menu answers for it

    @property
    def complete(self) -> bool:
        """Every score is in, and some wait for approval."""
        states = {line.state for line in self.lines}
        return WAITING in states and states <= {WAITING, APPROVED}

    @property
    def waiting(self) -> list[CardLine]:
        return [line for line in self.lines if line.state == WAITING]


@dataclass(frozen=True)
class CardView:
    id: int
    title: str  # "Week 3 · Group 2", "Pre-makeups · Ann · 12 March"
    games: list[CardGame]
    message_id: int | None
    pre_makeups: bool = False

    @property
    def waiting(self) -> list[CardLine]:
        return [line for game in self.games for line in game.waiting]


@dataclass(frozen=True)
class CardDecision:
    """What a click decided: the games (labels) and how many scores, and what
    was left (games still waiting for a score)."""

    card: CardView
    approved: list[CardGame]
    count: int
    rejected: CardLine | None = None
    incomplete: list[CardGame] | None = None


@dataclass(frozen=True)
class LeagueTerms:
    """What `/rules` fills its explanations with: this league's numbers."""

    settings: RuleSettings
    groupings_time: time
    lock_time: time
