"""The outbox's vocabulary: every kind of item has exactly one renderer and a
name the commissioner reads in the status; an item of a kind the bot does not
know is an error of the bot's own, not a post."""

from __future__ import annotations

from datetime import date

import pytest

from bot.delivery.outgoing import RENDERERS, Outgoing, nothing, renders
from bot.delivery.words import words
from bot.models import OutboxItem
from bot.outbox_kinds import Kind, card_ref, night_ref, ref_id, skip_ref
from bot.ui.delivery import WHAT, what
from tests.cogs.fakes import FakeBot


def test_every_kind_has_exactly_one_renderer() -> None:
    assert set(RENDERERS) == set(Kind)


def test_a_second_renderer_of_a_kind_is_refused() -> None:
    async def another(*_: object) -> Outgoing:
        return nothing("never")

    with pytest.raises(RuntimeError, match="outbox kind alert has two renderers"):
        renders(Kind.ALERT)(another)
    assert RENDERERS[Kind.ALERT] is not another


def test_every_kind_is_named_in_the_status() -> None:
    assert set(WHAT) == set(Kind)
    item = OutboxItem(id=1, guild_id=1, target="announcements", kind=Kind.SEASON_SUMMARY,
                      ref="night:5", data=None, nonce="x", status="failed", attempts=1,
                      next_attempt_at=None, pieces_sent=0, message_id=None, last_error=None,
                      created_at="2026-01-01", sent_at=None)  # fmt: skip
    assert what(item, {5: "week 10"}) == "season summary of week 10 to #announcements"
    assert what(item, {5: "playoff night"}) == "season summary of playoff night to #announcements"


def test_refs_name_what_they_are_about() -> None:
    assert (card_ref(4), night_ref(5), skip_ref(date(2026, 1, 28))) == (
        "card:4", "night:5", "skip:2026-01-28",
    )  # fmt: skip
    assert (ref_id("card:4", "card"), ref_id("card:4", "night"), ref_id("card:x", "card")) == (
        4, None, None,
    )  # fmt: skip


async def test_an_item_of_an_unknown_kind_is_the_bots_own_error(league: FakeBot) -> None:
    item = OutboxItem(id=1, guild_id=1, target="announcements", kind="fireworks", ref="",
                      data=None, nonce="x", status="pending", attempts=0, next_attempt_at=None,
                      pieces_sent=0, message_id=None, last_error=None, created_at="2026-01-01",
                      sent_at=None)  # fmt: skip
    with pytest.raises(ValueError, match="an outbox item of unknown kind 'fireworks'"):
        await words(league, item)
