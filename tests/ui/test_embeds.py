"""Results, standings and groupings as embeds laid out for a phone.

Every post is checked with the stand-in's own validator (standin/messages.py),
which answers as Discord does: no limit is restated here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import date, time
from fractions import Fraction

import discord
import pytest

from bot.models import Night, NightResult, Player
from bot.services.outcomes.night import (
    GameFinish,
    GameLine,
    GroupSummary,
    GroupView,
    NightSummary,
    WeekView,
)
from bot.services.outcomes.posts import GroupingsPost, Post
from bot.services.outcomes.standings import StandingRow
from bot.ui import embeds
from standin.messages import check_body

RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")
NIGHT = Night(1, 1, 3, date(2026, 3, 25), "finalized", 2100)
MACHINES = ["Medieval Madness", "Attack from Mars", "The Addams Family", "Twilight Zone",
            "Monster Bash"]  # fmt: skip


def name(n: int) -> str:
    """Names with spaces, some long: a line must never break inside one."""
    return f"Maria de la Cruz {n}" if n % 3 == 0 else f"Player {n}"


def player(n: int) -> Player:
    return Player(n, 1, None, name(n), None, 0, False)


def result(n: int, place: int, group_size: int) -> NightResult:
    points = 2 * (group_size - place) + 1
    movement = "up" if place == 1 else "down" if place == group_size else "stays"
    return NightResult(1, 3, n, 1, place, "present", True, points, Fraction(10**6 * n, 7), 2, 3,
                       6, points + 6, points + 2, "", False, 1, 0, movement)  # fmt: skip


def summary(players: int) -> NightSummary:
    groups = []
    for g in range(players // 4):
        members = [g * 4 + i + 1 for i in range(4)]
        rows = [(name(n), result(n, place, 4)) for place, n in enumerate(members, start=1)]
        games = [GameLine(k + 1, MACHINES[k], [GameFinish(name(n), 4 - i, "live")
                                               for i, n in enumerate(members)])
                 for k in range(5)]  # fmt: skip
        groups.append(GroupSummary(f"Group {g + 1}", rows, games))
    payouts = {name(1): 1050, name(2): 630, name(3): 420}
    next_groups = [(g.label, [n for n, _ in g.rows]) for g in groups]
    return NightSummary(NIGHT, groups, payouts, 2100, next_groups, True)


def week_view(players: int) -> WeekView:
    groups = [
        GroupView(f"Group {g + 1}", [name(g * 4 + i + 1) for i in range(4)],
                  [name(g * 4 + i + 1) for i in reversed(range(4))], [])
        for g in range(players // 4)
    ]  # fmt: skip
    owed = {name(n): MACHINES[:3] for n in range(1, players, 5)}
    return WeekView(NIGHT, groups, "veto", 2, owed, time(19, 15), time(15, 0))


def standing_rows(players: int) -> list[StandingRow]:
    return [
        StandingRow(n, player(n), "A" if n <= players // 2 else "B", 100 - n // 4,
                    Fraction(n), 3, 1 + n % 3)
        for n in range(1, players + 1)
    ]  # fmt: skip


def texts(embed: discord.Embed) -> list[str]:
    """What a reader sees of an embed, line by line."""
    found = [embed.title or "", *(embed.description or "").split("\n")]
    for field in embed.fields:
        found += [field.name or "", *(field.value or "").split("\n")]
    return [*found, embed.footer.text or ""]


def within_discord(messages: list[list[discord.Embed]]) -> None:
    for message in messages:
        check_body({"embeds": [e.to_dict() for e in message]}, creating=True)


def lines_of(messages: list[list[discord.Embed]]) -> list[str]:
    return [line for message in messages for embed in message for line in texts(embed)]


def names_whole(lines: list[str], players: int) -> None:
    """No name is broken at a space: each shows only with no-break spaces."""
    text = "\n".join(lines)
    for n in range(1, players + 1):
        assert name(n) not in text or " " not in name(n), name(n)


@pytest.mark.parametrize("players", [30, 300])
def test_results_fit_discord_and_a_phone(players: int) -> None:
    messages = embeds.results(summary(players))
    within_discord(messages)
    lines = lines_of(messages)
    names_whole(lines, players)
    assert not [line for line in lines if RULE_ID.search(line)]
    legend = embeds.RESULTS_LEGEND
    assert all(m[-1].footer.text == legend for m in messages)  # every message has the legend
    assert "MP match points" in legend and "TNS total normalized score" in legend
    assert "bonus base × multiplier" in legend and "TLP " in legend
    player_lines = [line for line in lines if " pts · " in line]
    assert len(player_lines) == players // 4 * 4
    assert max(len(line.replace("**", "")) for line in player_lines) <= embeds.PHONE
    assert "Divisions A and B start next week." in lines
    payout = "\n".join(line for line in lines if "$" in line)
    assert payout.startswith("Payout from the $21.00 pot:")
    assert "Player\u00a01 $10.50 (TLP 9)," in payout  # TLP decides the payout: shown


def test_results_say_who_moves_and_show_tns_only_when_it_broke_a_tie() -> None:
    night = summary(4)
    group = night.groups[0]
    tied = [(n, r) for n, r in group.rows]
    # the top two tie on match points: TNS decides their places (R7.1 Case 1)
    tied[1] = (tied[1][0], replace(tied[1][1], match_points=tied[0][1].match_points))
    night = replace(night, groups=[replace(group, rows=tied)])
    [[embed]] = embeds.results(night)
    text = embed.fields[0].value or ""
    assert "moves up" in text and "moves down" in text and "stays" in text
    assert len(re.findall(r"TNS \d", text)) == 2  # the two tied players only


@pytest.mark.parametrize(("players", "most"), [(30, 1), (300, 8)])
def test_groupings_one_message_per_ten_groups_at_most(players: int, most: int) -> None:
    post = Post("groupings:2026-03-25", "groupings", GroupingsPost(week_view(players)), True,
                time(12, 0), NIGHT.date)  # fmt: skip
    messages = embeds.groupings(post)
    within_discord(messages)
    assert len(messages) <= most
    assert len(messages) <= -(-players // 4 // 10)
    lines = lines_of(messages)
    names_whole(lines, players)
    assert not [line for line in lines if RULE_ID.search(line)]
    assert sum(f.name.startswith("Group ") for m in messages for e in m for f in e.fields) == (
        players // 4
    )
    assert "(Posted late: the bot was offline at 12:00.)" in lines
    assert "Late or not coming? Tap a button below before 15:00." in lines
    assert "use /veto before 19:15." in lines
    owed = [f for m in messages for e in m for f in e.fields if f.name.startswith("Pre-makeup")]
    assert owed and "Attack from Mars" in owed[0].value
    assert max(len(line) for line in lines if "→" in line) <= embeds.PHONE


@pytest.mark.parametrize("players", [30, 300])
def test_standings_pages_fit_a_phone_screen(players: int) -> None:
    pages = embeds.pages(embeds.standing_entries(standing_rows(players)))
    shown = [
        embeds.page_embed("Standings", pages, n, legend=embeds.STANDINGS_LEGEND, empty="-")
        for n in range(len(pages))
    ]
    within_discord([[e] for e in shown])
    assert all(len((e.description or "").split("\n")) <= embeds.PAGE_LINES for e in shown)
    lines = lines_of([shown])
    names_whole(lines, players)
    ranks = [int(m[1]) for line in lines if (m := re.match(r"(\d+)\. ", line))]
    assert ranks == list(range(1, players + 1))  # every player once, in order
    # each page opens under its division's heading
    assert all((e.description or "").startswith("**Division ") for e in shown)
    assert "**Division B**" in lines
    assert shown[-1].footer.text == f"{embeds.STANDINGS_LEGEND} · Page {len(pages)} of {len(pages)}"


def test_a_page_shows_its_heading_again_and_no_empty_list_is_blank() -> None:
    entries = [embeds.Entry("Group 1", [f"line {n}"]) for n in range(30)]
    pages = embeds.pages(entries, 10)
    assert [len(p) for p in pages] == [9, 9, 9, 3]  # the heading takes a line on each page
    second = embeds.page_embed("T", pages, 1, empty="-")
    assert (second.description or "").startswith("**Group 1**\nline 9")
    assert embeds.page_embed("T", embeds.pages([]), 0, empty="Nothing.").description == "Nothing."


def test_wrap_breaks_only_between_parts() -> None:
    parts = ["Maria\u00a0de\u00a0la\u00a0Cruz", "Bob", "A very long machine name indeed here"]
    assert embeds.wrap(parts, ", ", 20) == [
        "Maria\u00a0de\u00a0la\u00a0Cruz,",
        "Bob,",
        "A very long machine name indeed here",
    ]
