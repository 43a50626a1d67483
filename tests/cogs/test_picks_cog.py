"""/veto: a player's picks for tonight (R4.2-R4.4), and its autocomplete."""

from __future__ import annotations

from datetime import date

import pytest

from bot.repositories import leagues, nights
from bot.services import machine_list, membership
from cogs.picks.picks_cog import Picks
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, invoke
from tests.cogs.league_play import MACHINES, lock, snapshot

# How the tests that go over every command invoke it (tests/cogs/examples.py).
EXAMPLES = [Example("veto", Picks(), "veto", {"machine": "Monster Bash"}, before_the_lock=True)]

COG = Picks()
MONDAY = at(date(2026, 1, 5))
# Six working machines, five games: each group vetoes k = 6 - 5 = 1 (R4.2).
HOW = "Each group applies 1; lowest-ranked players pick first."


async def stored_picks(bot: FakeBot, player: int) -> list[str]:
    async with bot.db.read() as conn:
        league = await leagues.league_by_guild(conn, GUILD)
        assert league is not None
        season = await leagues.open_season(conn, league.id)
        assert season is not None
        night = await leagues.night_by_week(conn, season.id, 1)
        assert night is not None
        by_player = await nights.picks(conn, night.id)
    player_ids = {p.discord_id: p.id for p in (await membership.roster(bot.db, GUILD))[0]}
    return by_player.get(player_ids[PLAYERS[player].id], [])


async def veto(bot: FakeBot, machine: str, player: int = 1):  # type: ignore[no-untyped-def]
    return await invoke(COG.veto, COG, as_user(bot, PLAYERS[player], MONDAY), machine=machine)


async def test_veto_adds_picks_in_order_and_shows_the_list(league: FakeBot) -> None:
    bot = league
    said = await veto(bot, "Monster Bash")
    assert said.deferred is True and [r.ephemeral for r in said.replies] == [True]
    assert said.text == f"Your vetoes for week 1, in order: 1. Monster Bash.\n{HOW}"
    said = await veto(bot, "attack from mars")  # names are matched without case
    assert said.text == (
        f"Your vetoes for week 1, in order: 1. Monster Bash, 2. Attack from Mars.\n{HOW}"
    )
    assert await stored_picks(bot, 1) == ["Monster Bash", "Attack from Mars"]
    assert bot.channels[APPROVALS].sent == [] and bot.channels[ANNOUNCEMENTS].sent == []


async def test_a_machine_out_of_order_is_refused(league: FakeBot) -> None:
    bot = league
    await machine_list.add_machine(bot.db, GUILD, "Funhouse", par=50_000_000, now=MONDAY)
    await machine_list.set_working(bot.db, GUILD, "Twilight Zone", False)
    before = await snapshot(bot)
    said = await veto(bot, "Twilight Zone")
    assert said.text == "Twilight Zone is out of order tonight; pick a working machine."
    assert [r.ephemeral for r in said.replies] == [True]
    assert await snapshot(bot) == before


async def test_with_five_working_machines_there_is_nothing_to_pick(league: FakeBot) -> None:
    bot = league
    await machine_list.set_working(bot.db, GUILD, "Twilight Zone", False)  # P = 5 (R4.2)
    said = await veto(bot, "Monster Bash")
    assert said.text == ("There are exactly 5 working machines: all are played, nothing to pick.")
    assert await stored_picks(bot, 1) == []


async def test_with_four_working_machines_a_pick_is_a_repeat(league: FakeBot) -> None:
    bot = league
    await machine_list.set_working(bot.db, GUILD, "Twilight Zone", False)
    await machine_list.set_working(bot.db, GUILD, "Monster Bash", False)  # P = 4: 1 repeat
    said = await veto(bot, "Attack from Mars")
    assert said.text == (
        "Your repeats for week 1, in order: 1. Attack from Mars.\n"
        "Each group applies 1; lowest-ranked players pick first."
    )


async def test_vetoing_the_same_machine_twice_is_refused(league: FakeBot) -> None:
    bot = league
    await veto(bot, "Monster Bash")
    before = await snapshot(bot)
    said = await veto(bot, "monster bash")
    assert said.text == "You already vetoed Monster Bash. Your picks: Monster Bash."
    assert await snapshot(bot) == before


async def test_an_unknown_machine_is_refused_with_the_machines_listed(league: FakeBot) -> None:
    bot = league
    said = await veto(bot, "Pinbot")
    assert said.text == f"There is no machine called 'Pinbot'. Machines: {', '.join(MACHINES)}."
    assert await stored_picks(bot, 1) == []


async def test_clear_empties_the_list(league: FakeBot) -> None:
    bot = league
    await veto(bot, "Monster Bash")
    await veto(bot, "Theatre of Magic")
    said = await veto(bot, " Clear ")
    assert said.text == "Your picks for week 1 are empty."
    assert await stored_picks(bot, 1) == []
    said = await veto(bot, "Twilight Zone")
    assert said.text == f"Your vetoes for week 1, in order: 1. Twilight Zone.\n{HOW}"


@pytest.mark.parametrize("machine", ["Monster Bash", "clear"])
async def test_r4_3_after_picks_are_locked_veto_and_clear_are_refused(
    league: FakeBot, machine: str
) -> None:
    bot = league
    await veto(bot, "Monster Bash")
    await lock(bot)
    before = await snapshot(bot)
    said = await invoke(COG.veto, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "19:20")),
                        machine=machine)  # fmt: skip
    assert said.text == "Picks for week 1 are locked; the games are set."
    assert await snapshot(bot) == before


async def test_a_non_player_cannot_veto(league: FakeBot) -> None:
    bot = league
    said = await veto(bot, "Monster Bash", player=7)
    assert said.text == "You are not a player in this league. Ask the commissioner to add you."


async def test_the_vetoed_machine_is_not_played(league: FakeBot) -> None:
    """R4.4: P3, the lowest-ranked of group 1, vetoes Theatre of Magic; P1 Monster Bash.
    One veto applies, lowest rank first: Theatre of Magic goes."""
    bot = league
    await veto(bot, "Monster Bash", player=1)
    await veto(bot, "Theatre of Magic", player=3)
    await lock(bot)
    async with bot.db.read() as conn:
        league_row = await leagues.league_by_guild(conn, GUILD)
        assert league_row is not None
        season = await leagues.open_season(conn, league_row.id)
        assert season is not None
        night = await leagues.night_by_week(conn, season.id, 1)
        assert night is not None
        group = (await nights.groups(conn, night.id))[0]
        games = [g.machine for g in await nights.games(conn, group.id)]
    assert games == [m for m in MACHINES if m != "Theatre of Magic"]


async def test_autocomplete_lists_working_machines_and_clear(league: FakeBot) -> None:
    bot = league
    await machine_list.set_working(bot.db, GUILD, "Twilight Zone", False)
    choices = await COG.machine_choices(as_user(bot, PLAYERS[1], MONDAY), "")
    working = [m for m in MACHINES if m != "Twilight Zone"]
    assert [(c.name, c.value) for c in choices] == [
        *((m, m) for m in working),
        ("Clear my picks", "clear"),
    ]
    choices = await COG.machine_choices(as_user(bot, PLAYERS[1], MONDAY), "MA")
    assert [c.value for c in choices] == [
        "Attack from Mars",
        "Medieval Madness",
        "Theatre of Magic",
        "clear",
    ]


async def test_autocomplete_with_no_league_is_empty(bot: FakeBot) -> None:
    assert await COG.machine_choices(as_user(bot, PLAYERS[1], MONDAY), "") == []
