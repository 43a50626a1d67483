"""Message text for commands and posts, always within Discord's limits.

Every function returns plain text; `chunks` splits long text at line breaks
into messages of at most 2,000 characters (Discord's limit).
"""

from __future__ import annotations

from fractions import Fraction

from bot.models import NightResult
from bot.rules.exact import shown
from bot.rules.match import tns_decided
from bot.services.outcomes.night import GroupSummary, LockedGroup, MissedGame, PickList
from bot.services.outcomes.posts import (
    CutoffPost,
    GracePost,
    GroupingsPost,
    LockPost,
    Post,
    SkippedPost,
)
from cogs.attendance.attendance_outcomes import NoticeGiven, NoticeRecord
from cogs.scores.scores_outcomes import ScoreView
from cogs.standings.standings_outcomes import PlayerSeason, PlayoffDivision

MESSAGE_LIMIT = 2000
SOURCES = {"live": "", "pre_makeup": " (pre-makeup)", "zero_point": " (Zero Point Rule)",
           "zero_point_limit": " (Zero Point Rule, past the pre-makeup limit)"}  # fmt: skip


FENCE = "```"
SCORE_STATES = {"pending": "waiting for the commissioner", "approved": "approved",
                "rejected": "rejected"}  # fmt: skip


def chunks(text: str, limit: int = MESSAGE_LIMIT) -> list[str]:
    """Split at line breaks into pieces of at most `limit` characters; a code
    block cut in two is closed and reopened so each piece renders. Room for a
    closing fence is always kept, and a single line longer than a message is
    cut (inside a code block, each cut piece is fenced too)."""
    room = limit - len(FENCE) - 1  # what a piece may hold before its closing fence
    pieces: list[str] = []
    lines: list[str] = []  # the current piece
    in_code = False  # whether the current piece is inside a code block at its end

    def close() -> None:
        nonlocal lines
        if lines:
            pieces.append("\n".join([*lines, FENCE] if in_code else lines))
        lines = [FENCE] if in_code else []

    for line in text.split("\n"):
        opening = FENCE if in_code else ""
        while len(line) > room - len(opening) - 1:  # longer than any piece can hold
            cut = room - len(opening) - 1
            close()
            lines.append(line[:cut])
            line = line[cut:]
        if len("\n".join([*lines, line])) > room:
            close()
        lines.append(line)
        if line.startswith(FENCE):
            in_code = not in_code
    if lines and lines != [FENCE]:
        pieces.append("\n".join(lines))
    return pieces


def money(cents: int) -> str:
    return f"${cents / 100:,.2f}"


def notice(given: NoticeGiven) -> str:
    night = given.night
    what = "late" if given.notice.kind == "late" else "absent"
    minutes = f" about {given.notice.minutes} minutes" if given.notice.minutes else ""
    lines = [f"Noted: {given.player.name} will be {what}{minutes} on week {night.week} "
             f"({night.date:%A %d %B})."]  # fmt: skip
    if given.notice.kind == "late":
        lines.append(_late_rule(given))
        return "\n".join(lines)
    if given.zero_point_everywhere:
        lines.append("You have no pre-makeup nights left: the Zero Point Rule (0 points) applies "
                     "to every game.")  # fmt: skip
    else:  # R3.5: a night counts only when one of its games uses a pre-makeup score
        used = any(g.counts for g in given.missed)
        uses = "will use one" if used else "uses none"
        lines.append(f"Pre-makeup nights left before this one: {given.pre_makeup_nights_left} "
                     f"(this night {uses}).")  # fmt: skip
    for game in given.missed:
        label = f"Game {game.number} · {game.machine}" if game.number else game.machine
        if game.counts:
            lines.append(f"- {label}: your pre-makeup score {game.pre_makeup:,}")
        elif game.pre_makeup is not None:
            lines.append(f"- {label}: your pre-makeup score {game.pre_makeup:,} stands in for "
                         "the others, but you score 0")  # fmt: skip
        else:
            lines.append(f"- {label}: no pre-makeup score, Zero Point Rule (0 points)")
    if given.missed and given.missed[0].number is None:
        lines.append(f"The games are set when picks lock at {given.lock_time:%H:%M}; "
                     "the list shows every working machine.")  # fmt: skip
    return "\n".join(lines)


def _late_rule(given: NoticeGiven) -> str:
    """R2.1-R2.2 with the league's own times; after the cutoff, what a missed game
    scores for this player (R3.2, R3.4)."""
    cutoff = f"{given.late_cutoff:%H:%M}"
    if given.notice.timing == "advance":
        return "You told us before league day: the commissioner decides whether your group waits."
    if given.notice.timing == "on_time":
        return (f"You told us before the {cutoff} late-notice cutoff: the commissioner decides "
                "whether your group waits.")  # fmt: skip
    head = (f"This notice came after the {cutoff} late-notice cutoff: your group will not wait "
            f"past {given.grace_until:%H:%M}.")  # fmt: skip
    return f"{head} {_missed_games(given)}"


def _missed_games(given: NoticeGiven) -> str:
    """What a game this player misses scores: true for them (R3.2, R3.4, R3.6)."""
    stand_ins = sum(g.counts for g in given.missed)
    if stand_ins and stand_ins == len(given.missed):
        return "Games you miss are scored from your pre-makeup scores."
    if stand_ins:
        return ("A game you miss is scored from your pre-makeup score on its machine, or gets "
                "0 points (the Zero Point Rule) where you have none.")  # fmt: skip
    if given.zero_point_everywhere:
        return ("You have no pre-makeup nights left: games you miss get 0 points "
                "(the Zero Point Rule).")  # fmt: skip
    return "You have no pre-makeup scores: games you miss get 0 points (the Zero Point Rule)."


def late_for_commissioner(given: NoticeGiven | NoticeRecord) -> str:
    what = "late" if given.notice.kind == "late" else "absent"
    minutes = f", about {given.notice.minutes} min" if given.notice.minutes else ""
    note = f" — “{given.notice.note}”" if given.notice.note else ""
    timing = given.notice.timing.replace("_", " ")
    return f"{given.player.name}: {what} for week {given.night.week}{minutes} ({timing}){note}"


def score_pending(view: ScoreView) -> str:
    """A submitted score. Who submitted it for another player is a mention of their
    Discord id, which Discord shows as the real member: a display name can be copied."""
    submitter = view.score.submitted_by
    by = "" if submitter == view.player.discord_id else f" (submitted by <@{submitter}>)"
    return (f"Week {view.night.week} · {view.group_label} · Game {view.game.number} · "
            f"{view.game.machine}\n**{view.player.name}**: {view.score.score:,}{by}\n"
            f"Waiting for the commissioner.{photo_line(view)}")  # fmt: skip


def scores_pending(views: list[ScoreView]) -> str:
    """Several scores submitted at once (the score form): a line each, for a phone."""
    if len(views) == 1:
        return "Submitted:\n" + score_pending(views[0])
    first = views[0]
    lines = [f"Submitted {len(views)} scores for week {first.night.week} · {first.group_label}, "
             "waiting for the commissioner:"]  # fmt: skip
    lines += [f"- Game {v.game.number} · {v.game.machine} · **{v.player.name}**: {v.score.score:,}"
              for v in views]  # fmt: skip
    return "\n".join(lines)


def photo_line(view: ScoreView) -> str:
    """The score's photo: the league's copy (its file's details removed), or for
    a score sent before copies were kept, Discord's link, which may have expired."""
    if view.photo:
        return "\nPhoto kept, without its location or other details."
    if view.score.photo_url:
        return f"\nPhoto (old link, may have expired): {view.score.photo_url}"
    return ""


def pick_list(picks: PickList) -> str:
    if not picks.picks:
        return f"Your picks for week {picks.night.week} are empty."
    word = "vetoes" if picks.kind == "veto" else "repeats"
    listed = ", ".join(f"{n}. {m}" for n, m in enumerate(picks.picks, start=1))
    return (
        f"Your {word} for week {picks.night.week}, in order: {listed}.\n"
        f"Each group applies {picks.needed}; lowest-ranked players pick first."
    )


def locked(groups: list[LockedGroup], week: int) -> str:
    lines = [f"**Week {week}: picks are locked.** Tonight's games:"]
    for group in groups:
        games = ", ".join(f"{n}. {m}" for n, m in enumerate(group.games, start=1))
        lines.append(f"**{group.label}**: {games}")
        if group.play_order:
            lines.append(f"  Game 1 play order: {' → '.join(group.play_order)}")
        if group.filled:
            lines.append(
                f"  (not enough picks: {', '.join(group.filled)} applied in machine order)"
            )
        for name, missed in group.absent:
            lines.append(f"  {name} is absent; their pre-makeup scores play for them:")
            lines.extend(f"  - Game {g.number} · {g.machine}: {_stand_in(name, g)}" for g in missed)
    return "\n".join(lines)


def _stand_in(name: str, game: MissedGame) -> str:
    """R3.2, R3.4, R3.6: what an absent player's pre-makeup does in one game."""
    if game.pre_makeup is None:
        return "none, 0 points (the Zero Point Rule)"
    if game.counts:
        return f"{game.pre_makeup:,}"
    return f"{game.pre_makeup:,}, but {name} scores 0 (past the pre-makeup limit)"


def post(due: Post) -> str:
    """A scheduled post's text (`bot.services.announcements.due`); the groupings
    post is embeds (`bot.ui.embeds.groupings`)."""
    text = _post_text(due.content)
    if due.late:
        text = f"{text}\n(Posted late: the bot was offline at {due.at:%H:%M}.)"
    return text


def _post_text(content: CutoffPost | GracePost | GroupingsPost | LockPost | SkippedPost) -> str:
    assert not isinstance(content, GroupingsPost), "the groupings post is embeds"
    if isinstance(content, SkippedPost):
        return (f"No league night today ({content.day:%A %d %B}): "
                "the commissioner skipped this date.")  # fmt: skip
    if isinstance(content, LockPost):
        return locked(content.groups, content.week)
    if isinstance(content, CutoffPost):
        return cutoff_post(content)
    return grace_post(content)


def cutoff_post(post: CutoffPost) -> str:
    """R2.1-R2.2: the notices received; from now on groups do not wait past 19:30."""
    lines = [f"**Week {post.week}: late-notice cutoff ({post.cutoff:%H:%M}).**"]
    for notice in post.notices:
        eta = (
            f", about {notice.minutes} min late" if notice.kind == "late" and notice.minutes else ""
        )
        lines.append(f"- {notice.player}: {notice.kind}{eta}")
    if not post.notices:
        lines.append("No late notices or absences.")
    grace = f"{post.grace_until:%H:%M}"
    lines.append(f"From now on a late player's group will not wait past {grace}.")
    return "\n".join(lines)


def grace_post(post: GracePost) -> str:
    """R2.3: the players the bot has heard nothing from tonight; there is no check-in."""
    head = f"**Week {post.week}: the grace period is over ({post.grace_until:%H:%M}).**"
    if not post.missing:
        return f"{head}\nEveryone has sent a notice or a score."
    return (
        f"{head}\nNo notice and no score yet from: {', '.join(post.missing)}. If they have not "
        "arrived, their groups may start; a game they miss is scored from their pre-makeup score, "
        "or gets 0 points (the Zero Point Rule) without one."
    )


def player_season(ps: PlayerSeason, *, reasons: bool = True) -> str:
    """/me. `reasons`: a rejected score's reason, for the player themself only."""
    lines = [
        f"**{ps.player.name}** · rank {ps.rank} · {ps.league_points} league points "
        f"over {ps.nights} night(s)",
        f"Bonus multiplier for the next night: x{ps.multiplier}",
        f"Pre-makeup nights used {ps.pre_makeup_nights_used}, left {ps.pre_makeup_nights_left}",
        f"Dues paid {money(ps.dues_paid_cents)}, owed {money(ps.dues_owed_cents)}",
    ]
    for week_no, mp, points, result in ps.weeks:
        lines.append(f"- Week {week_no}: {mp} MP, {points} league points, {result}")
    if ps.tonight:
        lines.append("Tonight's scores:")
        for t in ps.tonight:
            state = SCORE_STATES[t.status] + (f": {t.reason}" if t.reason and reasons else "")
            lines.append(f"- Game {t.game} · {t.machine}: {t.score:,} · {state}")
    return "\n".join(lines)


MOVES = {"up": "moves up", "down": "moves down", "stays": "stays"}
# Rows finalized before movement was kept know only R9.2's tally for certain.
TALLY = {"won": "won", "down": "moves down", "stayed": ""}


def moves(result: NightResult) -> str:
    """Where a player goes after the night (R8.3-R8.5), in words."""
    return MOVES.get(result.movement) or TALLY.get(result.week_result, "")


def tns_shown(group: GroupSummary) -> set[int]:
    """Places whose TNS broke a tie that night (R7.1 Case 1, R7.3 Case 2)."""
    rows = [r for _, r in group.rows]
    return tns_decided([r.match_points for r in rows], [r.took_part for r in rows],
                       bonus=any(r.bonus_base for r in rows))  # fmt: skip


def result_parts(group: GroupSummary) -> list[list[str]]:
    """Each player's line in parts (R7, R8.3-R8.5): place and name, points, MP,
    bonus, TNS when it broke a tie, absent, where they go next week."""
    lines = []
    shown = tns_shown(group)
    for index, (name, r) in enumerate(group.rows):
        parts = [f"{r.place}. {keep_whole(name)}: {r.league_points} pts", f"{r.match_points} MP"]
        if r.bonus_base:
            parts.append(f"bonus {r.bonus_base}×{r.multiplier}")
        if index in shown:
            parts.append(f"TNS {tns(r.tns)}")
        if not r.took_part:
            parts.append("absent")
        if where := moves(r):
            parts.append(where)
        lines.append(parts)
    return lines


def tns(value: Fraction) -> str:
    """A TNS as shown: whole points with thousands separators (R6.1: exact until shown)."""
    return f"{shown(value):,}"


def keep_whole(name: str) -> str:
    """A name that a phone never wraps in the middle: its spaces do not break."""
    return name.replace(" ", "\u00a0")


def playoffs(field: list[PlayoffDivision]) -> str:
    lines = ["**Playoffs**"]
    for division in field:
        name = f"Division {division.division}" if division.division else "League"
        lines.append(f"{name}: {', '.join(division.qualifiers)}")
        if division.alternates:
            lines.append(f"  Alternates, in order: {', '.join(division.alternates[:3])}")
    return "\n".join(lines)
