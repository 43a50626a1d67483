"""What the repositories return: small frozen records of stored league facts."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time
from fractions import Fraction


@dataclass(frozen=True)
class ServerSetup:
    """Where a server's league lives: its two channels and its commissioner role
    (set with /setup; `set_by` None: moved from an older .env)."""

    guild_id: int
    announcements_channel_id: int
    approvals_channel_id: int
    commissioner_role_id: int
    set_by: int | None = None
    set_at: str = ""
    time_zone: str | None = None  # None: LEAGUE_TIME_ZONE


@dataclass(frozen=True)
class NightSetup:
    """How a server's league nights show in Discord (/setup-night): the weekday of
    seasons started from now on (None: Wednesday), the venue of their scheduled
    events (None: no events), a thread per group, the division roles."""

    guild_id: int
    weekday: str | None = None
    venue: str | None = None
    group_threads: bool = False
    division_roles: bool = False


@dataclass(frozen=True)
class League:
    id: int
    guild_id: int
    name: str
    time_zone: str
    play_time: time
    grace_until: time
    late_cutoff: time
    groupings_time: time
    picks_lock_time: time


@dataclass(frozen=True)
class Season:
    id: int
    league_id: int
    name: str
    start_date: date
    weekday: str
    regular_nights: int
    games_per_night: int
    pre_makeup_night_limit: int
    bonus_start_week: int
    multiplier_start_week: int
    division_week: int
    division_min_players: int
    two_swap_match_points: int
    dues_cents: int
    payout_first_percent: int
    status: str


@dataclass(frozen=True)
class Player:
    id: int
    league_id: int
    discord_id: int | None
    name: str
    skill: float | None
    extra_pre_makeup_nights: int
    removed: bool
    joined_at: str = ""  # ISO-8601 UTC
    ifpa_number: int | None = None  # for the IFPA results submission


@dataclass(frozen=True)
class Machine:
    id: int
    league_id: int
    name: str
    par: int | None
    working: bool
    added_at: str


@dataclass(frozen=True)
class Night:
    id: int
    season_id: int
    week: int
    date: date
    status: str  # scheduled, locked, finalized
    pot_cents: int | None
    kind: str = "regular"  # or "playoff": playoff night, the week after the last (R13.4)


@dataclass(frozen=True)
class FieldEntry:
    """A player of a division's playoff field (R13.1, R13.5), by standing."""

    pool: str  # '' without divisions, else 'A' or 'B'
    standing: int  # 1 is the division's best
    player_id: int
    qualified: bool  # a qualifier when announced; else an alternate, in standing order
    checked_in_at: str | None = None
    replaced_by: int | None = None  # R13.5: the alternate who took this qualifier's place
    place: int | None = None  # R13.6: the playoff place, once the division is decided


@dataclass(frozen=True)
class BracketGame:
    """A game of a bracket match (R13.3): its machine and who picked it, then
    both raw scores once played (`high`'s first)."""

    number: int
    machine_id: int
    picked_by: int
    high_score: int | None = None
    low_score: int | None = None

    @property
    def played(self) -> bool:
        return self.high_score is not None


@dataclass(frozen=True)
class BracketMatch:
    """A match of a division's playoff bracket (R13.3); `high` is the better seed."""

    id: int
    pool: str
    round: str  # 'semifinal', 'final' or 'third'
    slot: int  # the semifinal's number (1: seeds 1 v 4, 2: 2 v 3); 1 otherwise
    high_id: int
    low_id: int
    games: tuple[BracketGame, ...] = ()


@dataclass(frozen=True)
class NightState:
    """A night as a quick check sees it: whether its groups are stored yet."""

    week: int
    date: date
    status: str
    grouped: bool


@dataclass(frozen=True)
class SeasonNights:
    """A league's open season as one quick statement reads it: its time zone,
    the season (None: no season running), its nights and how many players the
    league has."""

    time_zone: str
    season_id: int | None
    regular_nights: int
    nights: tuple[NightState, ...]
    players: int


@dataclass(frozen=True)
class Group:
    id: int
    night_id: int
    pool: str  # '' for the whole league, 'A' or 'B'
    position: int
    members: tuple[int, ...]  # player ids in ladder order


@dataclass(frozen=True)
class Game:
    id: int
    group_id: int
    number: int
    machine_id: int
    machine: str
    filled: bool


@dataclass(frozen=True)
class Score:
    id: int
    game_id: int
    player_id: int
    score: int
    status: str  # pending, approved, rejected, superseded
    submitted_by: int
    decided_by: int | None
    approval_message_id: int | None
    photo_url: str | None = None  # Discord's link to a photo, kept only for older scores
    reason: str | None = None  # the commissioner's, when rejected


@dataclass(frozen=True)
class Photo:
    """A photo of a score display as the league keeps it: checked, turned upright,
    downsized and re-encoded with no metadata (`bot/photos.py`)."""

    data: bytes = field(repr=False)
    format: str  # 'jpeg' or 'png'
    width: int
    height: int

    @property
    def extension(self) -> str:
        return "jpg" if self.format == "jpeg" else "png"


@dataclass(frozen=True)
class ScorePhoto:
    """A score's stored photo, without its bytes; `message_id`: its post in the
    approvals channel, once sent (the card links there)."""

    score_id: int
    format: str
    width: int
    height: int
    size: int
    message_id: int | None


@dataclass(frozen=True)
class PreMakeup:
    id: int
    season_id: int
    player_id: int
    machine_id: int
    score: int
    status: str
    submitted_by: int
    decided_by: int | None
    approval_message_id: int | None
    reason: str | None = None  # the commissioner's, when rejected
    card_id: int | None = None  # its approval card (None: posted on its own, before cards)


@dataclass(frozen=True)
class Notice:
    id: int
    night_id: int
    player_id: int
    kind: str  # late, absent
    timing: str  # advance, on_time, after_cutoff (R2.1)
    minutes: int | None
    note: str


@dataclass(frozen=True)
class ScoreChange:
    id: int
    game_id: int
    player_id: int
    old_score: int | None
    new_score: int
    kind: str
    reason: str
    changed_by: int
    changed_at: str


@dataclass(frozen=True)
class NightResult:
    night_id: int
    week: int
    player_id: int
    group_id: int
    place: int
    attendance: str
    took_part: bool
    match_points: int
    tns: Fraction  # exact (R6.1 Decision); stored as text
    bonus_base: int
    multiplier: int
    bonus: int
    league_points: int
    tlp: int
    week_result: str
    used_pre_makeup_night: bool
    next_multiplier: int
    payout_cents: int
    movement: str = ""  # R8.3-R8.5: "up", "down", "stays"; "" if finalized before it was kept


@dataclass(frozen=True)
class GameResultRow:
    """One player's finalized game (R5, R6.3): the par it was scored with makes
    its normalized score exact, `score × 1,000,000 / par` (0 under R3.4/R3.6)."""

    game_id: int
    player_id: int
    score: int
    source: str  # live, pre_makeup, zero_point or zero_point_limit
    points: int
    par: int | None  # None only in rows converted from before 0002 whose value was 0
    place: int

    @property
    def normalized(self) -> Fraction:
        """R6.1, exact; 0 for a game under the Zero Point Rule (R3.4, R3.6)."""
        if self.par is None or self.source not in ("live", "pre_makeup"):
            return Fraction(0)
        return Fraction(self.score * 1_000_000, self.par)


@dataclass(frozen=True)
class AuditEntry:
    change: ScoreChange
    week: int
    game: int
    player: str


@dataclass(frozen=True)
class SeasonRules:
    """A season's playoff field and format (R13.1, R13.3) and prize split (R10.4)
    settings, as stored."""

    playoff_divisor: int = 3
    playoff_min: int = 2
    playoff_max: int = 4
    prize_places_a: str = "30,15,10"  # percent of the fund, best first
    prize_places_b: str = "20,10,7"
    prize_consolation_a: int = 20  # percent of the division's second-place prize
    prize_consolation_b: int = 50
    photo_required: bool = False  # /score needs a photo of the score display
    playoff_format: str = "final_group"  # R13.3: final_group or bracket
    playoff_games: int = 5  # R13.3: games of a final group
    playoff_best_of: int = 3  # R13.3: games of a bracket match, at most


@dataclass(frozen=True)
class OutboxItem:
    """A message the bot owes (migrations/0004_outbox.sql): what it is about
    (`kind`, `ref`, `data`), where it goes (`target`) and how its delivery went."""

    id: int
    guild_id: int
    target: str  # announcements, approvals, commissioners, dm:<discord user id>
    kind: str  # one of bot.outbox_kinds.Kind: approval, results, alert, …
    ref: str  # what it is about: 'card:4', 'night:5', 'notice:9', a post's key
    data: str | None  # JSON, for what cannot be read back when it is sent
    nonce: str
    status: str  # pending, sending, sent, failed, dropped
    attempts: int
    next_attempt_at: str | None
    pieces_sent: int
    message_id: int | None
    last_error: str | None
    created_at: str
    sent_at: str | None
