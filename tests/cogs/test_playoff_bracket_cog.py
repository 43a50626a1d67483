"""A bracket played through on playoff night with the commands (R13.3, R13.6):
the commissioner starts it, the higher seed picks, the commissioner records
each game, a decided match and the champion are posted, and a correction
decides again. Refusals are private and change nothing."""

from __future__ import annotations

from datetime import date, timedelta

from discord import app_commands

from bot.repositories import outbox_items
from bot.services import (
    bracket_games,
    membership,
    playoff_checkin,
    playoff_play,
    playoffs,
    setup,
)
from bot.services.outcomes.playoffs import PlayoffNightShown
from cogs.closing import closing
from cogs.playoffs.playoffs_cog import Playoffs
from cogs.scores.scores_cog import Scores
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, Said, invoke, shown
from tests.cogs.league_play import MACHINES, NINE, divisions_from_week_2, play_week
from tests.cogs.test_export_rows_edges import documented_columns
from tests.cogs.test_exports_cog import export, tables
from tests.cogs.test_playoff_final_group import NIGHT, playoff_night, posted, start

COG = Playoffs()
THREE = ", ".join(MACHINES[:3])
M = 1_000_000


async def bracket_night(bot: FakeBot) -> FakeBot:
    """P1 (seed 1) and P4 (seed 2) checked in; the playoffs are a bracket, best of 3."""
    await playoff_night(bot)
    await setup.change_setting(bot.db, GUILD, "playoff_format", "bracket", now=at(NIGHT, "19:00"))
    return bot


async def game(bot: FakeBot, player: str, mine: str, theirs: str, machine: str | None = None,
               clock: str = "20:00", by=COMMISSIONER) -> Said:  # fmt: skip
    return await invoke(COG.game, COG, as_user(bot, by, at(NIGHT, clock)), player=player,
                        score=mine, opponent_score=theirs, machine=machine)  # fmt: skip


async def test_r13_3_a_bracket_is_played_to_its_champion(league: FakeBot) -> None:
    bot = await bracket_night(league)
    said = await start(bot, THREE)
    assert said.text.startswith("Playoff night has started: the bracket is drawn on Attack")
    await bot.outbox.flush()
    (drawn,) = posted(bot, "play starts")
    assert "**League · Final**: 1. P1 v 2. P4 · 0–0" in drawn
    assert "Next: P1 picks game 1's machine" in drawn
    picker = await invoke(COG.pick, COG, as_user(bot, PLAYERS[1], at(NIGHT, "19:40")),
                          machine="Medieval Madness")  # fmt: skip
    assert (picker.text, picker.replies[0].ephemeral) == (
        "Game 1 of your final: Medieval Madness.", True)  # fmt: skip
    said = await game(bot, "P4", "1.2B", "900M")  # P4 wins game 1 on P1's pick
    assert said.text.startswith("Game 1 of the final recorded.\n**League · Final**: 1. P1 v 2. "
                                "P4 · 0–1\n  Game 1: Medieval Madness (P1's pick): P1 "
                                "900,000,000, P4 1,200,000,000")  # fmt: skip
    await game(bot, "P1", "500M", "400M", "Attack from Mars")  # P1 lost game 1: P1's pick
    said = await game(bot, "P4", "800M", "700M", "Twilight Zone")
    await bot.outbox.flush()
    (decided,) = posted(bot, "**League · Final**: P4 beats")
    assert decided.startswith("**League · Final**: P4 beats P1 2–1.")
    (champion,) = posted(bot, "**Playoffs · ")
    assert champion == "**Playoffs · League champion: P4**\nWon the final 2–1.\n2nd: P1"
    board = await invoke(COG.bracket, COG, as_user(bot, PLAYERS[2], at(NIGHT, "22:00")))
    assert "🏆 League champion: P4" in board.text
    assert board.replies[0].ephemeral


async def test_r13_3_refusals_are_private_and_change_nothing(league: FakeBot) -> None:
    bot = await bracket_night(league)
    said = await start(bot, ", ".join(MACHINES[:2]))
    assert said.text == ("A match is best of 3 and plays no machine twice: name at least 3 "
                         "machines, separated by commas (you named 2).")  # fmt: skip
    await start(bot, THREE)
    for said, why in (
        (await invoke(COG.pick, COG, as_user(bot, PLAYERS[4], at(NIGHT, "19:40")),
                      machine="Twilight Zone"),
         "P1 picks game 1's machine (the higher seed picks game 1)."),
        (await game(bot, "P4", "1B", "1B", "Twilight Zone"),
         "An exact tie is replayed on the same machine: play game 1 again and enter the "
         "replay's scores."),
        (await game(bot, "P2", "1B", "2B", "Twilight Zone"), "P2 is not in tonight's bracket."),
        (await game(bot, "P4", "lots", "2B", "Twilight Zone"), None),
        (await game(bot, "P4", "1B", "2B", "Twilight Zone", by=PLAYERS[4]), None),
        (await invoke(Scores().score, Scores(), as_user(bot, PLAYERS[4], at(NIGHT, "19:45")),
                      game=1, score="900M"),
         "Tonight's playoffs are a bracket: the commissioner records both scores of each game "
         "with /playoffs game, and a player picks a match's machine with /playoffs pick."),
    ):  # fmt: skip
        assert [r.ephemeral for r in said.replies] == [True]
        if why is not None:
            assert said.text == why
    board = await invoke(COG.bracket, COG, as_user(bot, PLAYERS[2], at(NIGHT, "19:50")))
    assert "Game 1" not in board.text  # nothing was recorded


async def test_r12_r13_6_a_bracket_correction_after_the_champion(league: FakeBot) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    await game(bot, "P1", "900M", "800M", "Medieval Madness")
    await game(bot, "P1", "100M", "800M", "Attack from Mars")
    await game(bot, "P1", "950M", "850M", "Twilight Zone")
    said = await invoke(COG.fix, COG, as_user(bot, COMMISSIONER, at(NIGHT, "22:00")),
                        player="P4", round=app_commands.Choice(name="Final", value="final"),
                        game=3, score="950M", opponent_score="900M",
                        reason="read the wrong display")  # fmt: skip
    assert said.text.startswith("Game 3 of the final corrected.")
    await bot.outbox.flush()
    first, last = posted(bot, "**Playoffs · ")
    assert first.startswith("**Playoffs · League champion: P1**")
    assert last.startswith("**Playoffs · League champion: P4**")
    assert posted(bot, "**League · Final (corrected)**: P4 beats P1 2–1.")
    _, data = await export(bot)
    games = tables(data)["playoff_games"]
    assert list(games[0]) == documented_columns()["playoff_games"]
    assert [(g["round"], g["game"], g["machine"], g["picked_by"], g["player"], g["score"],
             g["opponent"], g["opponent_score"]) for g in games][-1] == (
        "final", "3", "Twilight Zone", "P1", "P1", "900000000", "P4", "950000000")  # fmt: skip
    assert [r["name"] for r in tables(data)["final_standings"]][:2] == ["P4", "P1"]
    assert all(not shown(m).startswith("=") for m in bot.channels[ANNOUNCEMENTS].sent)


async def test_r13_6_standings_show_the_playoff_places_this_season_and_after(
    league: FakeBot,
) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    standings = Standings()
    said = await invoke(
        standings.standings, standings, as_user(bot, PLAYERS[2], at(NIGHT, "20:00"))
    )
    assert "Playoffs" not in said.text  # not decided yet
    await game(bot, "P4", "1.2B", "900M", "Medieval Madness")
    await game(bot, "P4", "800M", "700M", "Attack from Mars")
    said = await invoke(
        standings.standings, standings, as_user(bot, PLAYERS[2], at(NIGHT, "22:00"))
    )
    assert "League: 🏆 P4 · 2nd P1" in said.text
    await closing.close(bot.db, GUILD, confirm=True, now=at(NIGHT, "23:00"))
    await setup.start_season(bot.db, GUILD, "Summer", date(2026, 4, 1), now=at(NIGHT, "23:30"))
    later = as_user(bot, PLAYERS[2], at(NIGHT, "23:45"))
    said = await invoke(standings.standings, standings, later, season="Spring")
    assert "League: 🏆 P4 · 2nd P1" in said.text
    # /me of a past season: the player's place, and no next night to speak of.
    mine = await invoke(standings.me, standings, as_user(bot, PLAYERS[4], at(NIGHT, "23:50")),
                        season="Spring")  # fmt: skip
    assert mine.text.splitlines()[:2] == [
        "**P4** · Spring · rank 2 · 15 league points over 1 night(s)", "Playoffs: champion 🏆",
    ]  # fmt: skip
    assert "multiplier" not in mine.text and mine.replies[0].ephemeral
    now = await invoke(standings.me, standings, as_user(bot, PLAYERS[4], at(NIGHT, "23:50")))
    assert now.text.startswith("**P4** · rank") and "Playoffs" not in now.text  # Summer
    unknown = await invoke(standings.me, standings, as_user(bot, PLAYERS[4], at(NIGHT, "23:55")),
                           season="Winter")  # fmt: skip
    assert unknown.text == "There is no season called 'Winter'. Seasons: Spring, Summer."
    await membership.add_player(bot.db, GUILD, "P7", discord_id=PLAYERS[7].id,
                                now=at(NIGHT, "23:50"))  # fmt: skip
    newcomer = await invoke(standings.me, standings, as_user(bot, PLAYERS[7], at(NIGHT, "23:55")),
                            season="Spring")  # fmt: skip
    assert newcomer.text == "P7 played no night in Spring."


async def test_r13_6_divisions_each_play_a_bracket_and_a_correction_reopens_one(
    league: FakeBot,
) -> None:
    """Divisions A and B each play their own final. B is decided first; a
    correction makes it 1-1 again: its places are taken back and playoff night
    does not end with A's final; B's third game decides it again, and only then
    are the prizes and the summary owed."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=2)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    day = FIRST_NIGHT + timedelta(days=14)
    await setup.change_setting(bot.db, GUILD, "playoff_format", "bracket", now=at(day, "09:00"))
    shown = await playoffs.night_shown(bot.db, GUILD)
    assert isinstance(shown, PlayoffNightShown)
    (a1, a2), (b1, b2) = (d.qualifiers for d in shown.divisions)
    everyone = ", ".join([a1, a2, b1, b2])
    await playoff_checkin.check_in(bot.db, GUILD, everyone, now=at(day, "19:00"))
    play = await playoff_play.start(bot.db, GUILD, THREE, now=at(day, "19:31"))
    assert play.bracket is not None
    assert [(m.division, m.round) for m in play.bracket.matches] == [("A", "final"), ("B", "final")]

    async def record(player: str, mine: int, theirs: int, machine: str) -> None:
        await bracket_games.play(bot.db, GUILD, player, mine * M, theirs * M, machine,
                                   now=at(day, "20:00"))  # fmt: skip

    async def places() -> dict[str, int | None]:
        async with bot.db.read() as conn:
            rows = await conn.execute_fetchall(
                "SELECT p.name, f.place FROM playoff_field f JOIN players p ON p.id = f.player_id"
            )
        return {name: place for name, place in rows}

    await record(b1, 300, 100, MACHINES[0])
    await record(b1, 310, 110, MACHINES[1])
    assert (await places())[b1] == 1
    prizes = len([i for i in await owed_kinds(bot) if i == "prizes"])
    await bracket_games.fix(bot.db, GUILD, b1, "final", 2, 100 * M, 310 * M, "typo",
                              by=COMMISSIONER.id, now=at(day, "20:30"))  # fmt: skip
    assert (await places())[b1] is None  # B is undecided again
    await record(a1, 400, 100, MACHINES[0])
    await record(a1, 410, 110, MACHINES[1])
    assert [i for i in await owed_kinds(bot) if i == "prizes"][prizes:] == []  # B still plays
    await record(b1, 320, 120, MACHINES[2])
    assert (await places())[b1] == 1
    assert [i for i in await owed_kinds(bot) if i == "prizes"][prizes:] == ["prizes"]


async def owed_kinds(bot: FakeBot) -> list[str]:
    async with bot.db.read() as conn:
        return [i.kind for i in await outbox_items.waiting(conn, GUILD)] + [
            row[0] for row in await conn.execute_fetchall(
                "SELECT kind FROM outbox WHERE status = 'sent' ORDER BY id")
        ]  # fmt: skip
