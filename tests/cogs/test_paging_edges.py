"""◀ ▶ page buttons: who may page which list, what each list shows when paged."""

from __future__ import annotations

from datetime import timedelta

import discord

from bot.components.paging import PageButton, page_view
from bot.services import commissioners, picks
from cogs.scores.scores_cog import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, click, invoke

TONIGHT = at(FIRST_NIGHT, "20:00")
NEXT_WEEK = at(FIRST_NIGHT + timedelta(days=7), "12:00")
ONLY_THE_COMMISSIONER = "Only the commissioner can do that."


async def test_a_player_may_page_the_groups_but_not_the_audit_trail_or_the_waiting_scores(
    league: FakeBot,
) -> None:
    """The audit trail and the scores waiting are the commissioner's lists; the
    groups are everyone's, and paging them does not make a player one of the
    commissioners the bot DMs its alerts to."""
    groups = await click(PageButton("groups", 0, "1"), as_user(league, PLAYERS[1], TONIGHT))
    assert groups.replies[0].ephemeral
    assert groups.replies[0].embeds[0].title == "Week 1 · Wednesday 07 January 2026"
    for name, arg in (("audit", ":"), ("waiting", "")):
        refused = await click(PageButton(name, 0, arg), as_user(league, PLAYERS[1], TONIGHT))
        assert refused.text == ONLY_THE_COMMISSIONER
    assert await commissioners.recorded(league.db, GUILD) == []
    await click(PageButton("audit", 0, ":"), as_user(league, COMMISSIONER, TONIGHT))
    assert await commissioners.recorded(league.db, GUILD) == [COMMISSIONER.id]


async def test_paging_the_groups_of_a_past_week_shows_that_week_not_the_coming_one(
    league: FakeBot,
) -> None:
    """A week 1 groups post paged in week 2 still shows week 1."""
    paged = await click(PageButton("groups", 0, "1"), as_user(league, PLAYERS[2], NEXT_WEEK))
    assert [e.title for e in paged.replies[0].embeds] == ["Week 1 · Wednesday 07 January 2026"]


async def test_the_audit_trail_paged_for_a_name_with_a_colon_reads_the_whole_name(
    league: FakeBot,
) -> None:
    """The custom id's arg is "<week>:<player name>": only the first colon
    separates them, a name may hold more."""
    paged = await click(PageButton("audit", 0, ":P1: the first"),
                        as_user(league, COMMISSIONER, TONIGHT))  # fmt: skip
    assert paged.text == "There is no player called 'P1: the first' in this league."


def test_the_page_buttons_read_back_and_forward_in_grey() -> None:
    view = page_view("groups", "1", 0, 3)
    assert view is not None
    [row] = view.to_components()
    buttons = row["components"]
    assert [(b["label"], b["style"], b.get("disabled")) for b in buttons] == [
        ("◀", discord.ButtonStyle.secondary.value, True),
        ("▶", discord.ButtonStyle.secondary.value, False),
    ]


async def test_one_score_waiting_is_paged_under_its_week_on_one_page_without_buttons(
    league: FakeBot,
) -> None:
    await picks.lock_picks(league.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    cog = Scores()
    await invoke(cog.score, cog, as_user(league, PLAYERS[1], TONIGHT), game=1, score="1,000")
    clicked = as_user(league, COMMISSIONER, TONIGHT)
    paged = await click(PageButton("waiting", 0, ""), clicked)
    [reply] = paged.replies
    assert reply.ephemeral and reply.view is None
    [embed] = reply.embeds
    assert embed.title == "Week 1: scores waiting"
    assert embed.description is not None and "P1 · 1,000" in embed.description
