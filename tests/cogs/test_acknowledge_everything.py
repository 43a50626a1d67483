"""The acknowledgement comes before the first transaction, for every command,
button, menu and modal the bot has: nothing a user does waits on a write before
Discord hears from the bot (its 3-second deadline). Commands that must refuse
before answering publicly read one quick statement first; a form (a modal) can
only be the first answer, so /score-form reads what the form shows first."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.client import LeagueBot
from bot.services import scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example, gathered
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, Said, click, invoke, submit_modal
from tests.cogs.league_play import lock
from tests.cogs.test_commissioner_cog import COG, COMMANDS, VALID_OPTIONS, run
from tests.test_client import settings

TONIGHT = at(FIRST_NIGHT, "20:00")
BEFORE = at(FIRST_NIGHT, "10:00")


def before_acknowledging(said: Said) -> list[str]:
    assert "acknowledged" in said.events, said.events
    return said.events[: said.events.index("acknowledged")]


async def tonight(bot: FakeBot) -> FakeBot:
    """Week 1 locked, P1 to P3 with a score waiting on game 1."""
    await lock(bot)
    for player in (1, 2, 3):
        await scores.submit(bot.db, GUILD, PLAYERS[player].id, 1, 1000 * player, now=TONIGHT)
    await bot.outbox.flush()  # the group's card
    return bot


@pytest.mark.parametrize("name", sorted(VALID_OPTIONS))
async def test_every_league_command_acknowledges_before_the_database(
    league: FakeBot, name: str
) -> None:
    bot = await tonight(league)
    options = dict(VALID_OPTIONS[name])
    if name == "player import":
        from tests.cogs.test_roster_import_cog import upload

        options["file"] = upload(b"name\r\nZed\r\n")
    said = await run(bot, name, when=TONIGHT, **options)
    assert before_acknowledging(said) == [], (name, said.events)
    assert COMMANDS[name].qualified_name == f"league {name}"


# Each command's example is in its own test file (tests/cogs/examples.py).
PLAYER_COMMANDS = gathered()


@pytest.mark.parametrize("example", PLAYER_COMMANDS, ids=[c.name for c in PLAYER_COMMANDS])
async def test_every_player_command_acknowledges_before_any_transaction(
    league: FakeBot, example: Example
) -> None:
    bot = league
    when = BEFORE  # before the picks lock and the cutoff: accepted
    if not example.before_the_lock:
        await lock(bot)
        when = TONIGHT
    cog = example.cog
    said = await invoke(getattr(cog, example.callback), cog, as_user(bot, PLAYERS[1], when),
                        **example.options)  # fmt: skip
    assert before_acknowledging(said) == example.reads_first, (example.name, said.events)


async def test_the_examples_have_every_player_command_once(tmp_path: Path) -> None:
    """Built from the registered command tree: a new command fails here until its
    test file has its example."""
    bot = LeagueBot(settings(tmp_path))
    try:
        await bot.setup_hook()
        names = {command.name for command in bot.tree.get_commands()}
    finally:
        await bot.close()
    examples = [c.name for c in PLAYER_COMMANDS]
    assert len(examples) == len(set(examples))
    assert names - {"league"} == set(examples)


async def test_the_cards_buttons_menus_and_form_acknowledge_before_any_transaction(
    league: FakeBot,
) -> None:
    bot = await tonight(league)
    koi = as_user(bot, COMMISSIONER, TONIGHT)
    [card] = bot.channels[APPROVALS].sent

    menu = card.button("Reject a score…")
    option = menu.item.options[0]
    asked = await click(menu, as_user(bot, COMMISSIONER, TONIGHT, message=card), [option.value])
    assert before_acknowledging(asked) == [] and asked.modals  # the form is the answer
    done = await submit_modal(asked.modals[0], koi, reason="Photo is blurry")
    assert before_acknowledging(done) == [] and done.text.startswith("Rejected")

    game = card.button("Approve one game…")
    picked = await click(game, as_user(bot, COMMISSIONER, TONIGHT, message=card),
                         [game.item.options[0].value])  # fmt: skip
    assert before_acknowledging(picked) == [] and picked.text.startswith("Approved")

    await scores.submit(bot.db, GUILD, PLAYERS[4].id, 1, 4000, now=TONIGHT)
    await bot.outbox.flush()
    cards = [m for m in bot.channels[APPROVALS].sent if m.view is not None]
    button = cards[-1].button("Approve all complete")
    approved = await click(button, as_user(bot, COMMISSIONER, TONIGHT, message=cards[-1]))
    assert before_acknowledging(approved) == [], approved.events


async def test_a_page_button_acknowledges_before_reading(league: FakeBot) -> None:
    import discord

    await lock(league)
    for custom_id in ("page:groups:0:1", "page:waiting:0:", "page:audit:0::"):
        said = await click(discord.ui.Button(custom_id=custom_id),
                           as_user(league, COMMISSIONER, TONIGHT))  # fmt: skip
        assert before_acknowledging(said) == [], (custom_id, said.events)
    assert COG is not None
