"""The acknowledgement comes before the first transaction, for every command,
button, menu and modal the bot has: nothing a user does waits on a write before
Discord hears from the bot (its 3-second deadline). Commands that must refuse
before answering publicly read one quick statement first; a form (a modal) can
only be the first answer, so /score-form reads what the form shows first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.client import LeagueBot
from cogs.attendance.attendance_cog import Attendance
from cogs.picks.picks_cog import Vetoes
from cogs.rulebook.rulebook_cog import Rules
from cogs.scores import scores
from cogs.scores.scores_cog import Scores
from cogs.scores.scores_form_cog import ScoreFormCommand
from cogs.standings.standings_cog import Standings
from cogs.stats.stats_cog import Stats
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
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


PLAYER_COMMANDS: list[tuple[str, Any, str, dict[str, Any], list[str]]] = [
    # name, cog, callback, options, what it may read before acknowledging
    ("late", Attendance(), "late", {"minutes": 10}, []),
    ("absent", Attendance(), "absent", {}, []),
    ("score", Scores(), "score", {"game": 2, "score": "250M"}, []),
    ("premakeup", Scores(), "premakeup",
     {"machine": "Monster Bash", "score": "1M", "with_": PLAYERS[2]}, []),
    ("veto", Vetoes(), "veto", {"machine": "Monster Bash"}, []),
    ("standings", Standings(), "standings", {}, ["quick read"]),
    ("groups", Standings(), "groups", {}, ["quick read"]),
    ("me", Standings(), "me", {}, []),
    ("stats", Stats(), "stats", {}, []),
    ("machine", Stats(), "machine", {"name": "Monster Bash"}, []),
    ("rules", Rules(), "rules", {}, []),
    # A modal must be the first answer: what the form shows is read first.
    ("score-form", ScoreFormCommand(), "score_form", {}, ["read"]),
]  # fmt: skip


@pytest.mark.parametrize(("name", "cog", "callback", "options", "allowed"), PLAYER_COMMANDS,
                         ids=[c[0] for c in PLAYER_COMMANDS])  # fmt: skip
async def test_every_player_command_acknowledges_before_any_transaction(
    league: FakeBot, name: str, cog: Any, callback: str, options: dict[str, Any],
    allowed: list[str],
) -> None:  # fmt: skip
    bot = league
    when = TONIGHT
    if name in ("veto", "premakeup", "late", "absent"):
        when = BEFORE  # before the picks lock and the cutoff: accepted
    else:
        await lock(bot)
    said = await invoke(getattr(cog, callback), cog, as_user(bot, PLAYERS[1], when), **options)
    assert before_acknowledging(said) == allowed, (name, said.events, said.text)


async def test_the_table_has_every_player_command(tmp_path: Path) -> None:
    """Built from the registered command tree: a new command fails here until it is added."""
    bot = LeagueBot(settings(tmp_path))
    try:
        await bot.setup_hook()
        names = {command.name for command in bot.tree.get_commands(guild=bot.guild)}
    finally:
        await bot.close()
    assert names - {"league"} == {c[0] for c in PLAYER_COMMANDS}


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
