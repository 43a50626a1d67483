"""Clicks whose custom id the bot never wrote (a forged or broken ◀ ▶ button)
are refused with a short private line, like any stale click: no apology, no
traceback in the log."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.components.paging import STALE
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import FakeBot, click
from tests.cogs.test_commissioner_cog import private

TONIGHT = at(FIRST_NIGHT, "20:00")


@pytest.mark.parametrize(
    "custom_id",
    [
        "page:groups:0:abc",  # not a week
        "page:groups:0:1:2",  # an extra field
        "page:standings:0:A:7:9",
        "page:standings:0:A:99999999999999999999999",  # a season id SQLite cannot hold
        "page:standings:0:C:1",  # no division C
        "page:audit:0:abc:P1",
        "page:waiting:0:anything",
    ],
)
async def test_a_forged_paging_button_is_refused_quietly(
    league: FakeBot, custom_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    for member in (COMMISSIONER, PLAYERS[1]):
        said = await click(discord.ui.Button(custom_id=custom_id), as_user(league, member, TONIGHT))
        if member is PLAYERS[1] and custom_id.startswith(("page:audit", "page:waiting")):
            assert said.text == "Only the commissioner can do that."
        else:
            assert said.text == STALE
        assert private(said)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_good_paging_button_still_pages(league: FakeBot) -> None:
    said = await click(discord.ui.Button(custom_id="page:groups:0:1"),
                       as_user(league, PLAYERS[1], TONIGHT))  # fmt: skip
    assert private(said) and said.replies[0].embeds


async def test_a_standings_page_of_a_season_no_longer_kept_says_so(league: FakeBot) -> None:
    """A ◀ ▶ button of a season's standings whose season is not in the database
    (a restore of an older backup since) answers privately what happened."""
    said = await click(discord.ui.Button(custom_id="page:standings:0::999"),
                       as_user(league, PLAYERS[1], TONIGHT))  # fmt: skip
    assert said.text == "That season is no longer kept." and private(said)
