"""/stats, /machine, the season summary and season history, over real
services and a real SQLite file; numbers worked by hand from tests/cogs/league_play.py."""

from __future__ import annotations

from datetime import date

from bot.components.choices import season_choices
from cogs.closing import closing
from cogs.standings.standings_cog import Standings
from cogs.stats.stats_cog import Stats
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import GUILD, FakeBot, FakeMember, invoke
from tests.cogs.league_play import night_of, play_week, snapshot
from tests.cogs.test_commissioner_cog import announced, private, run

# How the tests that go over every command invoke these (tests/cogs/examples.py).
EXAMPLES = [
    Example("stats", Stats(), "stats"),
    Example("machine", Stats(), "machine", {"name": "Monster Bash"}),
]

COG = Stats()
STANDINGS = Standings()
LATER = at(date(2026, 3, 1))
# Every game of a week: P1 300M, P2 200M, P3 100M in group 1 and the same for
# P4, P5, P6 in group 2. R5.2: 300 > 200 + 100 is false, so the close point goes
# to third: 3-2-1 game points. Par 1,000M: normalized 300,000, 200,000, 100,000.
# R4.5: nobody picked, so the one veto each group owes (six working machines,
# five games, R4.2) is filled in league order: Attack from Mars is vetoed.
WEEK = {1: 300_000_000, 2: 200_000_000, 3: 100_000_000,
        4: 300_000_000, 5: 200_000_000, 6: 100_000_000}  # fmt: skip
MACHINES = ["Attack from Mars", "Medieval Madness", "Twilight Zone", "The Addams Family",
            "Monster Bash"]  # fmt: skip


async def stats(bot: FakeBot, member: FakeMember = PLAYERS[1], **options: object) -> str:
    said = await invoke(COG.stats, COG, as_user(bot, member, LATER), **options)
    assert private(said)
    return said.text


async def machine(bot: FakeBot, **options: object) -> str:
    said = await invoke(COG.machine, COG, as_user(bot, PLAYERS[2], LATER), **options)
    assert private(said)
    return said.text


# --- /stats -------------------------------------------------------------------------------


async def test_stats_of_the_caller_after_a_night(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK)
    assert await stats(bot) == "\n".join([
        "**P1** · Spring",
        "Nights played 1 · group wins 1",
        "Game points: 3.00 a game over 5 games",
        "Moved up 0 · moved down 0",  # R8.3: the top group's winner stays
        "**Machines** (best · average normalized)",
        "Medieval Madness: 300,000,000 · 300,000",
        "Monster Bash: 300,000,000 · 300,000",
        "The Addams Family: 300,000,000 · 300,000",
        "Theatre of Magic: 300,000,000 · 300,000",
        "Twilight Zone: 300,000,000 · 300,000",
        "**Against** (won–lost–tied games)",
        "P2: 5–0–0",
        "P3: 5–0–0",
    ])  # fmt: skip


async def test_r8_3_stats_count_moves_over_two_nights(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK)  # R8.3: P3 (group 1's last) swaps with P4
    # Week 2: group 1 is P1, P2, P4; group 2 P3, P5, P6. P4 loses group 1 and
    # P3 wins group 2: they swap back.
    await play_week(bot, 2, {1: 300_000_000, 2: 200_000_000, 4: 100_000_000,
                             3: 300_000_000, 5: 200_000_000, 6: 100_000_000})  # fmt: skip
    text = await stats(bot, player="p3")
    assert "Nights played 2 · group wins 1" in text
    assert "Moved up 1 · moved down 1" in text
    assert "Game points: 2.00 a game over 10 games" in text  # 1 a game, then 3
    assert "P1: 0–5–0" in text and "P5: 5–0–0" in text and "P4: 0–0–0" not in text
    text = await stats(bot, player="P4")
    assert "Moved up 1 · moved down 1" in text and "P1: 0–5–0" in text
    assert "P3:" not in text  # they were never in the same group: no record


async def test_stats_before_any_night(league: FakeBot) -> None:
    text = await stats(league, PLAYERS[6])
    assert text.endswith("No finalized nights yet.") and "Nights played 0" in text


async def test_stats_refusals_are_private_and_change_nothing(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK)
    before = await snapshot(bot)
    assert await stats(bot, player="Nobody") == (
        "There is no player called 'Nobody' in this league."
    )
    assert await stats(bot, season="Winter 1999") == (
        "There is no season called 'Winter 1999'. Seasons: Spring."
    )
    stranger = FakeMember(800000000000000099, "Stranger")
    assert await stats(bot, stranger) == (
        "You are not a player in this league. Ask the commissioner to add you."
    )
    assert await stats(bot, player="   ") == "Name a player."
    assert (await stats(bot, player="x" * 64)).startswith("There is no player called 'xxxx")
    assert "…" in await stats(bot, player="y" * 64)  # a long name is cut, not echoed whole
    assert await snapshot(bot) == before and announced(bot)[-1].startswith("Standings · ")


async def test_stats_without_a_league(bot: FakeBot) -> None:
    assert (await stats(bot)).startswith("This server has no league yet.")


# --- /machine -----------------------------------------------------------------------------


async def test_machine_high_scores_par_average_vetoes(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK)
    assert await machine(bot, name="medieval madness") == "\n".join([
        "**Medieval Madness** · Spring",
        "Par: 1,000,000,000",
        "Played 2 times · average 200,000,000",
        "Vetoed 0 · repeated 0",
        "**High scores**",
        "1. P1 300,000,000 · week 1, 07 Jan",  # the same score: by name
        "2. P4 300,000,000 · week 1, 07 Jan",
        "3. P2 200,000,000 · week 1, 07 Jan",
        "4. P5 200,000,000 · week 1, 07 Jan",
        "5. P3 100,000,000 · week 1, 07 Jan",
    ])  # fmt: skip
    # R4.2: six machines working, five games: each group left out Attack from Mars
    text = await machine(bot, name="Attack from Mars")
    assert "Vetoed 2 · repeated 0" in text and text.endswith("No scores on it yet.")


async def test_r4_2_a_machine_played_twice_in_a_group_is_repeated(league: FakeBot) -> None:
    bot = league
    for name in ["Attack from Mars", "Twilight Zone", "The Addams Family", "Monster Bash",
                 "Theatre of Magic"]:  # fmt: skip
        await run(bot, "machine working", machine=name, working=False)
    await play_week(bot, 1, WEEK)  # P = 1: Medieval Madness five times in each group
    text = await machine(bot, name="Medieval Madness")
    assert "Played 10 times" in text and "Vetoed 0 · repeated 8" in text


async def test_machine_refusals(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    assert (await machine(bot, name="Xenon")).startswith("There is no machine called 'Xenon'.")
    assert (await machine(bot, name="Twilight Zone", season="Fall")).startswith(
        "There is no season called 'Fall'."
    )
    assert await snapshot(bot) == before


# --- autocomplete -------------------------------------------------------------------------


async def test_autocomplete_names_players_machines_and_seasons(league: FakeBot) -> None:
    bot = league
    asker = as_user(bot, PLAYERS[1], LATER)
    players = await COG.player_choices(asker, "p")  # type: ignore[call-arg]
    assert [c.value for c in players] == [f"P{n}" for n in range(1, 7)]
    machines = await COG.machine_choices(asker, "M")  # type: ignore[call-arg]
    # those starting with it first, then those holding it, each in league order
    assert [c.value for c in machines] == ["Medieval Madness", "Monster Bash", "Attack from Mars",
                                           "The Addams Family", "Theatre of Magic"]  # fmt: skip
    assert [c.value for c in await season_choices(asker, "")] == ["Spring"]  # type: ignore[arg-type]
    assert await season_choices(asker, "zz" * 50) == []  # type: ignore[arg-type]


# --- the season summary -------------------------------------------------------------------


async def test_the_summary_is_owed_once_after_the_last_regular_night(league: FakeBot) -> None:
    bot = league
    await run(bot, "season setting", name="regular_nights", value="2")
    await play_week(bot, 1, WEEK)
    await bot.outbox.flush()
    assert not any("regular season is over" in m for m in announced(bot))
    # A correction of week 1 (before week 2 starts) posts week 1 again, no summary.
    posts = len(announced(bot))
    await run(bot, "score change", when=at(FIRST_NIGHT, "23:30"), kind="correction",
              week=1, player="P6", game=1, score="150000000", reason="misread")  # fmt: skip
    assert announced(bot)[posts].startswith("Week 1 results")  # posted again
    assert not any("regular season is over" in m for m in announced(bot))
    await play_week(bot, 2, {1: 300_000_000, 2: 200_000_000, 4: 100_000_000,
                             3: 300_000_000, 5: 200_000_000, 6: 100_000_000})  # fmt: skip
    await bot.outbox.flush()
    summaries = [m for m in announced(bot) if "regular season is over" in m]
    assert len(summaries) == 1
    [summary] = summaries
    lines = summary.split("\n")
    assert lines[0] == "**Spring: the regular season is over**"
    # 15 + 15 league points; the playoffs decide the champion (R13.6)
    assert lines[1] == "League regular-season leader: P1 (the playoffs decide the champion)"
    assert lines[2].startswith("Prize fund $0.00 · weekly payouts $0.00")
    # Weeks 1 and 2 are the two halves: P3 went from 100,000 to 300,000 a game.
    assert "Most improved: P3 (average normalized score 100,000 → 300,000)" in lines
    assert "Medieval Madness: P1 300,000,000 (week 1)" in lines
    assert "Attack from Mars" not in summary  # vetoed every time: no high score
    # /league admin resend week 2 posts it again, as the other result posts
    said = await run(bot, "admin resend", when=at(night_of(2), "23:30"), week=2)
    assert private(said)
    assert len([m for m in announced(bot) if "regular season is over" in m]) == 2


# --- season history -----------------------------------------------------------------------


async def test_two_seasons_keep_players_skills_machines_and_history(league: FakeBot) -> None:
    bot = league
    await run(bot, "season setting", name="regular_nights", value="1")
    await play_week(bot, 1, WEEK)
    when = at(date(2026, 2, 1))
    await run(bot, "player remove", when=when, name="P6")
    await run(bot, "player add", when=when, name="P7", member=PLAYERS[7], skill=9.5)
    await closing.close(bot.db, GUILD, confirm=True, now=when)  # playoff night not played
    said = await run(bot, "season start", when=when, name="Summer", start="2026-02-04", nights=2)
    assert said.text.endswith("New since Spring: P7. Not back: P6.")
    # The new season: the league's players with their skill (P7 9.5 after P1 10,
    # R8.2) and its machines with their par.
    said = await invoke(STANDINGS.groups, STANDINGS, as_user(bot, PLAYERS[1], when))
    assert "**Group 1**\nP1, P7, P2\n" in said.text and "**Group 2**\nP3, P4, P5\n" in said.text
    text = await machine(bot, name="Attack from Mars")
    assert text.startswith("**Attack from Mars** · Summer\nPar: 1,000,000,000")
    assert text.endswith("No scores on it yet.")
    # The past season stays readable: its standings (with P6), stats and machines.
    said = await invoke(STANDINGS.standings, STANDINGS, as_user(bot, PLAYERS[2], when),
                        season="spring")  # fmt: skip
    assert said.text.startswith("Standings · Spring\n") and "P6" in said.text
    assert "P7" not in said.text
    assert "Nights played 1 · group wins 0" in await stats(bot, player="P6", season="Spring")
    assert "P1 300,000,000 · week 1" in await machine(bot, name="Twilight Zone", season="Spring")
    said = await invoke(STANDINGS.standings, STANDINGS, as_user(bot, PLAYERS[2], when))
    assert "P7" in said.text and "P6" not in said.text
    assert await stats(bot, player="P6") == "There is no player called 'P6' in this league."
    assert await stats(bot, player="P7", season="Spring") == "P7 did not play in Spring."
    asker = as_user(bot, PLAYERS[1], when)
    assert [c.value for c in await season_choices(asker, "")] == ["Summer", "Spring"]  # type: ignore[arg-type]


async def test_standings_of_an_unknown_season_is_refused(league: FakeBot) -> None:
    bot = league
    said = await invoke(STANDINGS.standings, STANDINGS, as_user(bot, PLAYERS[1], LATER),
                        season="Nope")  # fmt: skip
    assert said.text == "There is no season called 'Nope'. Seasons: Spring."
    assert private(said) and said.deferred is None


async def test_the_first_season_names_nobody_new(bot: FakeBot) -> None:
    await run(bot, "season setup", name="League")
    said = await run(bot, "season start", name="One", start="2026-01-07")
    assert "New since" not in said.text and said.text.startswith("Season One:")
