"""Message text for commands and posts, always within Discord's limits.

Every function returns plain text; `chunks` splits long text at line breaks
into messages of at most 2,000 characters (Discord's limit).
"""

from __future__ import annotations

from fractions import Fraction

from bot.models import NightResult
from bot.rules.exact import shown
from bot.rules.match import tns_decided
from bot.services.outcomes.night import GroupSummary, LockedGroup, MissedGame
from bot.services.outcomes.posts import (
    CutoffPost,
    GracePost,
    GroupingsPost,
    LockPost,
    PlayoffGracePost,
    PlayoffTonightPost,
    Post,
    PostContent,
    SkippedPost,
)
from bot.ui import playoffs

MESSAGE_LIMIT = 2000
SOURCES = {"live": "", "pre_makeup": " (pre-makeup)", "zero_point": " (Zero Point Rule)",
           "zero_point_limit": " (Zero Point Rule, past the pre-makeup limit)"}  # fmt: skip


FENCE = "```"


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


def post(due: Post) -> str:
    """A scheduled post's text (`bot.services.announcements.due`); the groupings
    post is embeds (`bot.ui.embeds.groupings`)."""
    text = _post_text(due.content)
    if due.late:
        text = f"{text}\n(Posted late: the bot was offline at {due.at:%H:%M}.)"
    return text


def _post_text(content: PostContent) -> str:
    assert not isinstance(content, GroupingsPost), "the groupings post is embeds"
    if isinstance(content, PlayoffTonightPost):
        return playoffs.tonight(content.shown)
    if isinstance(content, PlayoffGracePost):
        return playoffs.grace(content.replacements, content.shown)
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


def locked(groups: list[LockedGroup], week: int) -> str:
    lines = [f"**Week {week}: picks are locked.** Tonight's games:"]
    for group in groups:
        lines += group_lines(group)
    return "\n".join(lines)


def group_lines(group: LockedGroup) -> list[str]:
    """One group's games, its play order (R11.2) and its absent players' stand-ins."""
    games = ", ".join(f"{n}. {m}" for n, m in enumerate(group.games, start=1))
    lines = [f"**{group.label}**: {games}"]
    if group.play_order:
        lines.append(f"  Game 1 play order: {' → '.join(group.play_order)}")
    if group.filled:
        lines.append(f"  (not enough picks: {', '.join(group.filled)} applied in machine order)")
    for name, missed in group.absent:
        lines.append(f"  {name} is absent; their pre-makeup scores play for them:")
        lines.extend(f"  - Game {g.number} · {g.machine}: {_stand_in(name, g)}" for g in missed)
    return lines


def _stand_in(name: str, game: MissedGame) -> str:
    """R3.2, R3.4, R3.6: what an absent player's pre-makeup does in one game."""
    if game.pre_makeup is None:
        return "none, 0 points (the Zero Point Rule)"
    if game.counts:
        return f"{game.pre_makeup:,}"
    return f"{game.pre_makeup:,}, but {name} scores 0 (past the pre-makeup limit)"
