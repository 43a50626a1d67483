"""Results, standings and groupings as embeds laid out for a phone.

Pure: data in, `discord.Embed`s out. Lines are kept near `PHONE` characters so
a phone never wraps them, names never break (`render.keep_whole`), and each
post carries a one-line legend. A post longer than one message is cut into
messages that each stay within Discord's embed limits (`pack`); a long list is
cut into pages of about `PAGE_LINES` lines (`pages`), shown one at a time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.services.outcomes.night import GroupView, NightSummary, WeekView
from bot.services.outcomes.posts import GroupingsPost, Post
from bot.services.outcomes.standings import StandingRow
from bot.ui.fit import lines_within, values
from bot.ui.playoffs import preview_lines
from bot.ui.render import SOURCES, keep_whole, money, result_parts, tns

PHONE = 40  # characters a phone shows on one line of an embed
PAGE_LINES = 18  # lines on one page of a paged list: one phone screen
# Discord's embed limits (Embed Limits in its documentation).
MAX_EMBEDS, MAX_FIELDS, MAX_TOTAL, MAX_VALUE, MAX_DESCRIPTION = 10, 25, 6000, 1024, 4096
COLOUR = discord.Colour.blurple()

RESULTS_LEGEND = (
    "pts league points · MP match points · bonus base × multiplier · "
    "TLP match points + bonus, before the multiplier · TNS total normalized score"
)
STANDINGS_LEGEND = "pts league points · x bonus multiplier for the next night"
Messages = list[list[discord.Embed]]  # a post: its messages, each a list of embeds


def wrap(parts: Iterable[str], sep: str = " · ", width: int = PHONE) -> list[str]:
    """Join `parts` with `sep` into lines of at most `width` characters, breaking
    only between parts (a part longer than a line stands alone)."""
    lines: list[str] = []
    line = ""
    room = width - len(sep.rstrip())  # a broken line ends with the separator
    for part in parts:
        if line and len(line) + len(sep) + len(part) > room:
            lines.append(line + sep.rstrip())
            line = part
        else:
            line = f"{line}{sep}{part}" if line else part
    if line:
        lines.append(line)
    return lines


def labelled(label: str, items: Sequence[str], sep: str = ", ") -> list[str]:
    """`label` and the items after it: "Group 1: Ann, Bob," / "Cat"."""
    first = f"{label} {items[0]}" if items else label
    if len(first) + len(sep.rstrip()) > PHONE:  # the label on a line of its own
        return [label, *wrap(items, sep)]
    return wrap([first, *items[1:]], sep)


def names(players: Iterable[str], sep: str = ", ") -> list[str]:
    return wrap((keep_whole(p) for p in players), sep)


def fields_of(name: str, lines: Sequence[str]) -> list[tuple[str, str]]:
    """One field (name, value), or several when the lines are over a field's limit:
    cut between lines, a line too long alone cut at a word, never inside a link."""
    return [(name if not number else f"{name} (continued)", value)
            for number, value in enumerate(values(lines, MAX_VALUE))]  # fmt: skip


def pack(
    title: str, fields: Sequence[tuple[str, str]], *, description: str = "", footer: str = ""
) -> Messages:
    """The embeds of a post, in as few messages as Discord's limits allow: at most
    25 fields an embed, 10 embeds and 6,000 characters a message. The title and
    description open the post; each message ends with the footer (the legend)."""
    messages: Messages = []
    embeds: list[discord.Embed] = []
    embed = discord.Embed(title=title, description=description or None, colour=COLOUR)
    size = len(title) + len(description) + len(footer)

    def close() -> None:
        nonlocal embeds
        embeds.append(embed)
        if footer:
            embed.set_footer(text=footer)
        messages.append(embeds)
        embeds = []

    for name, value in fields:
        cost = len(name) + len(value)
        if size + cost > MAX_TOTAL or (
            len(embed.fields) == MAX_FIELDS and len(embeds) == MAX_EMBEDS - 1
        ):
            close()
            more = f"{title} (continued)"
            embed = discord.Embed(title=more, colour=COLOUR)
            size = len(more) + len(footer)
        elif len(embed.fields) == MAX_FIELDS:
            embeds.append(embed)
            embed = discord.Embed(colour=COLOUR)
        embed.add_field(name=name, value=value, inline=False)
        size += cost
    close()
    return messages


# --- the results post ------------------------------------------------------------------


def results(summary: NightSummary) -> Messages:
    """The night's results: a field per group (each game's finish, then each
    player's line: points, MP, bonus, TNS when it broke a tie, where they go)."""
    night = summary.night
    fields: list[tuple[str, str]] = []
    for group in summary.groups:
        lines: list[str] = []
        for game in group.games:
            finish = [f"{keep_whole(f.player)} {f.points}{SOURCES.get(f.source, '')}"
                      for f in game.finish]  # fmt: skip
            lines.append(f"Game {game.number} · {game.machine}")
            lines += [f"  {line}" for line in wrap(finish, ", ", PHONE - 2)]
        for parts in result_parts(group):
            first, *rest = wrap(parts)
            lines += [first, *(f"  {line}" for line in rest)]
        fields += fields_of(group.label, lines)
    about: list[str] = []
    if summary.payouts:
        paid = payout_parts(summary)
        about += labelled(f"Payout from the {money(summary.pot_cents)} pot:", paid)
    if summary.next_groups:
        if summary.divisions_formed:
            about.append("Divisions A and B start next week.")
        fields += fields_of(
            "Next week",
            [line for label, players in summary.next_groups
             for line in labelled(f"{label}:", list(map(keep_whole, players)))],
        )  # fmt: skip
    title = f"Week {night.week} results · {night.date:%A %d %B}"
    return pack(title, fields, description="\n".join(about), footer=RESULTS_LEGEND)


def payout_parts(summary: NightSummary) -> list[str]:
    """Each paid winner with the TLP that R10.2 compares, and their TNS when it
    broke a tie on TLP."""
    row = {name: r for g in summary.groups for name, r in g.rows}
    tlps = [row[n].tlp for n in summary.payouts]
    parts = []
    for name, cents in summary.payouts.items():
        r = row[name]
        why = f"TLP {r.tlp}, TNS {tns(r.tns)}" if tlps.count(r.tlp) > 1 else f"TLP {r.tlp}"
        parts.append(f"{keep_whole(name)} {money(cents)} ({why})")
    return parts


# --- the groupings post ----------------------------------------------------------------


def group_lines(group: GroupView) -> list[str]:
    """A group's players, game 1 play order and (once set) games, phone-wide."""
    lines = names(group.players)
    lines += labelled("Game 1 order:", list(map(keep_whole, group.play_order)), " → ")
    if group.games:
        lines += wrap([f"{n}. {m}" for n, m in group.games], ", ")
    return lines


def week_notes(view: WeekView) -> list[str]:
    """The week's picks line: what each group will veto (or repeat), and when."""
    if any(g.games for g in view.groups) or view.pick_kind == "none":
        return []
    word = "veto" if view.pick_kind == "veto" else "repeat"
    return [f"Each group will {word} {view.picks_needed} machine(s):",
            f"use /veto before {view.lock_time:%H:%M}."]  # fmt: skip


def owed(view: WeekView) -> list[list[str]]:
    """Each player's machines still owed a pre-makeup score (R3.1), a few lines each."""
    return [labelled(f"**{keep_whole(player)}**:", machines)
            for player, machines in view.owes_pre_makeups.items()]  # fmt: skip


def week_title(view: WeekView) -> str:
    return f"Week {view.night.week} · {view.night.date:%A %d %B %Y}"


def groupings(post: Post) -> Messages:
    """The 12:00 groupings post: a field per group; the picks line, the late-notice
    cutoff and the pre-makeup scores still owed as short lines."""
    content = post.content
    assert isinstance(content, GroupingsPost)  # only a groupings post comes here
    view = content.view
    late = f"Late or not coming? Tap a button below before {view.late_cutoff:%H:%M}."
    notes = [*week_notes(view), late]
    if post.late:
        notes.append(f"(Posted late: the bot was offline at {post.at:%H:%M}.)")
    fields = [f for g in view.groups for f in fields_of(g.label, group_lines(g))]
    fields += fields_of("Pre-makeup scores still owed", [n for p in owed(view) for n in p])
    if content.playoffs is not None:  # R13.3: the night that makes the format known
        fields += fields_of("Playoffs", preview_lines(content.playoffs))
    return pack(week_title(view), fields, description="\n".join(notes))


# --- paged lists -----------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """One item of a paged list: its lines, under a heading shared with its
    neighbours (a division, a group); an entry is never cut across pages."""

    heading: str
    lines: list[str]


def pages(entries: Sequence[Entry], size: int = PAGE_LINES) -> list[list[Entry]]:
    """The entries cut into pages of at most `size` lines, headings counted."""
    found: list[list[Entry]] = [[]]
    used = 0
    for entry in entries:
        previous = found[-1][-1].heading if found[-1] else None
        cost = len(entry.lines) + (1 if entry.heading and entry.heading != previous else 0)
        if found[-1] and used + cost > size:
            found.append([])
            cost = len(entry.lines) + (1 if entry.heading else 0)
            used = 0
        found[-1].append(entry)
        used += cost
    return found


def page_embed(
    title: str, entries: Sequence[Sequence[Entry]], page: int, *, legend: str = "", empty: str
) -> discord.Embed:
    """Page `page` (from 0) of a list: its entries under their headings."""
    lines: list[str] = []
    heading = None
    for entry in entries[page] if entries else []:
        if entry.heading and entry.heading != heading:
            lines.append(f"**{entry.heading}**")
        heading = entry.heading
        lines += entry.lines
    text = "\n".join(lines) or empty
    embed = discord.Embed(title=title, description=lines_within(text, MAX_DESCRIPTION),
                          colour=COLOUR)  # fmt: skip
    footer = [legend] if legend else []
    if len(entries) > 1:
        footer.append(f"Page {page + 1} of {len(entries)}")
    if footer:
        embed.set_footer(text=" · ".join(footer))
    return embed


def standing_entries(rows: Sequence[StandingRow], *, headings: bool = True) -> list[Entry]:
    """A line per player: rank, name, league points, multiplier; under
    their division's heading once divisions exist (unless one division is shown)."""
    return [Entry(f"Division {r.division}" if r.division and headings else "", standing_line(r))
            for r in rows]  # fmt: skip


PLACE_WORDS = {2: "2nd", 3: "3rd"}


def podium_lines(podium: Mapping[str, Sequence[str]]) -> list[str]:
    """R13.6: each division's playoff places, the champion first (names)."""
    lines = []
    for division, names in podium.items():
        where = f"Division {division}" if division else "League"
        places = [f"🏆 {keep_whole(names[0])}"]
        places += [f"{PLACE_WORDS.get(n, f'{n}th')} {keep_whole(name)}"
                   for n, name in enumerate(names[1:3], start=2)]  # fmt: skip
        lines.append(f"{where}: {' · '.join(places)}")
    return lines


def standing_line(row: StandingRow) -> list[str]:
    """Rank, name, league points, multiplier: one line on a phone (nights: /me)."""
    return wrap([f"{row.rank}. {keep_whole(row.player.name)}", f"{row.league_points} pts",
                 f"x{row.multiplier}"])  # fmt: skip


def week_entries(view: WeekView) -> list[Entry]:
    """/groups: a group per entry, then the notes and the pre-makeups owed."""
    found = [Entry(g.label, group_lines(g)) for g in view.groups]
    if notes := week_notes(view):
        found.append(Entry("Picks", notes))
    found += [Entry("Pre-makeup scores still owed", lines) for lines in owed(view)]
    return found
