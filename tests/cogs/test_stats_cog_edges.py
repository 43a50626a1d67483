"""/stats and /machine at their edges, as a league meets them: a player's name
of two words, a removed player and a new one sharing a name, a high score held
by a removed player (named apart from a current one of the same name), a
machine whose par is not set, autocomplete offering removed players, and moves
counted by the league's two-player-swap setting."""

from __future__ import annotations

from datetime import date

import pytest

from bot.services import finalize
from cogs.stats.stats_cog import Stats
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import GUILD, FakeBot, FakeMember
from tests.cogs.league_play import (
    NINE,
    approved_pre_makeup,
    divisions_from_week_2,
    lock,
    night_of,
    play_week,
    submit_all,
)
from tests.cogs.test_commissioner_cog import announced, run
from tests.cogs.test_stats_cog import WEEK, machine, stats

COG = Stats()
LATER = at(date(2026, 2, 1))
NEWCOMERS = [FakeMember(900_000_000_000_000_000 + n, f"New {n}") for n in range(1, 4)]


async def test_stats_of_a_player_named_in_two_words_however_it_is_spaced(
    league: FakeBot,
) -> None:
    bot = league
    await run(bot, "player add", when=LATER, name="Ann Lee", member=NEWCOMERS[0], skill=5.0)
    text = await stats(bot, player="  ann    LEE ")
    assert text.startswith("**Ann Lee** · Spring\nNights played 0")


async def test_a_name_shared_by_removed_players_and_a_current_one(league: FakeBot) -> None:
    """P6 played week 1 and was removed; a second "P6" was added and removed
    without playing. /stats P6 is the one who played this season; once a
    current player is called P6, it is that one."""
    bot = league
    await play_week(bot, 1, WEEK)
    await run(bot, "player remove", when=LATER, name="P6")
    await run(bot, "player add", when=LATER, name="P6", member=NEWCOMERS[0], skill=5.0)
    await run(bot, "player remove", when=LATER, name="P6")
    assert "Nights played 1 · group wins 0" in await stats(bot, player="P6")
    await run(bot, "player add", when=LATER, name="P6", member=NEWCOMERS[1], skill=5.0)
    assert "Nights played 0" in await stats(bot, player="P6")


async def test_a_high_score_held_by_a_removed_player_is_shown_by_name(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK)
    await run(bot, "player remove", when=LATER, name="P1")
    text = await machine(bot, name="Medieval Madness")
    assert "1. P1 300,000,000 · week 1, 07 Jan" in text


async def test_a_removed_player_is_told_from_a_current_one_of_the_same_name(
    league: FakeBot,
) -> None:
    """P1 holds the high score and left; a new player is called P1 too. The
    high score is the removed P1's, and says so; before the new P1, it did not."""
    bot = league
    await play_week(bot, 1, WEEK)
    await run(bot, "player remove", when=LATER, name="P1")
    await run(bot, "player add", when=LATER, name="p1", member=NEWCOMERS[0], skill=5.0)
    text = await machine(bot, name="Medieval Madness")
    assert "1. P1 (removed) 300,000,000 · week 1, 07 Jan" in text


async def test_a_machine_without_a_par_shows_the_one_its_pre_makeups_give(
    league: FakeBot,
) -> None:
    """R6.2: until the commissioner sets a par, the median of the approved
    pre-makeup scores on the machine stands in, and /machine says so."""
    bot = league
    await run(bot, "machine add", when=LATER, name="Funhouse")
    assert (await machine(bot, name="Funhouse")).split("\n")[1] == "Par: not set yet"
    for player, score in [(1, 300_000_000), (2, 100_000_000), (3, 120_000_000)]:
        await approved_pre_makeup(bot, player, "Funhouse", score)
    text = await machine(bot, name="Funhouse")
    assert text.split("\n")[1] == "Par: 120,000,000 (median of pre-makeups)"
    assert "(median of pre-makeups)" not in await machine(bot, name="Monster Bash")


async def test_autocomplete_offers_removed_players_after_current_ones(league: FakeBot) -> None:
    bot = league
    await run(bot, "player remove", when=LATER, name="P2")
    asker = as_user(bot, PLAYERS[1], LATER)
    players = await COG.player_choices(asker, "p")  # type: ignore[call-arg]
    assert [c.value for c in players] == ["P1", "P3", "P4", "P5", "P6", "P2"]


SEVEN = {1: 400_000_000, 2: 300_000_000, 3: 200_000_000,
         4: 400_000_000, 5: 300_000_000, 6: 200_000_000, 7: 100_000_000}  # fmt: skip


async def moves(bot: FakeBot, player: str) -> str:
    [line] = [x for x in (await stats(bot, player=player)).split("\n") if x.startswith("Moved")]
    return line


@pytest.mark.parametrize(
    ("setting", "p2", "p5"),
    [(None, "Moved up 0 · moved down 1", "Moved up 1 · moved down 0"),
     ("11", "Moved up 0 · moved down 0", "Moved up 0 · moved down 0")],
    ids=["two swap at 10 MP", "one swap at 11 MP"],
)  # fmt: skip
async def test_r8_5_stats_count_a_two_player_swap_by_the_leagues_setting(
    league: FakeBot, setting: str | None, p2: str, p5: str
) -> None:
    """Seven players: group 1 of three, group 2 of four (R8.1). Every game P1
    and P4 win, P2 and P5 are second (10 MP each: 3-2-1 and 3-2-1-0 points).
    At the default 10 MP, P4 and P5 swap with P2 and P3 (R8.5); at a setting
    of 11, P5's 10 MP is too few, and only P4 and P3 swap (R8.3)."""
    bot = league
    await run(bot, "player add", name="P7", member=PLAYERS[7], skill=4.0)
    if setting is not None:
        await run(bot, "season setting", name="two_swap_match_points", value=setting)
    await play_week(bot, 1, SEVEN)
    assert await moves(bot, "P4") == "Moved up 1 · moved down 0"
    assert await moves(bot, "P3") == "Moved up 0 · moved down 1"
    assert (await moves(bot, "P2"), await moves(bot, "P5")) == (p2, p5)


async def test_r9_4_stats_count_moves_within_each_division(league: FakeBot) -> None:
    """Nine players, divisions from week 2 (R9.1, a setting): in week 2 each
    division's groups swap among themselves (R9.4), so the moves /stats counts
    are those of each division's own ladder. Every game, the lower-numbered
    player scores more. Week 1: P1 P2 P3 | P4 P5 P6 | P7 P8 P9, so P3 and P4
    swap, P6 and P7 (R8.3). Week 2: A is P1 P2 | P4 P7 and B is P3 P5 P6 | P8 P9,
    so P2 and P4 swap in A, P6 and P8 in B; P3 and P7 stay (top and bottom)."""
    bot = league
    await divisions_from_week_2(bot)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    assert [await moves(bot, f"P{n}") for n in range(1, 10)] == [
        "Moved up 0 · moved down 0",
        "Moved up 0 · moved down 1",
        "Moved up 0 · moved down 1",
        "Moved up 2 · moved down 0",
        "Moved up 0 · moved down 0",
        "Moved up 0 · moved down 2",
        "Moved up 1 · moved down 0",
        "Moved up 1 · moved down 0",
        "Moved up 0 · moved down 0",
    ]


async def test_the_season_summary_names_a_player_removed_before_it(league: FakeBot) -> None:
    """P1 had the night's best scores and left before it was finalized: P1 is
    out of the standings (the champion is P4, group 2's winner), but the
    summary's high scores still name P1."""
    bot = league
    await run(bot, "season setting", name="regular_nights", value="1")
    await lock(bot, 1)
    await submit_all(bot, 1, WEEK)
    await run(bot, "player remove", when=at(night_of(1), "22:30"), name="P1")
    await finalize.finalize(bot.db, GUILD, by=COMMISSIONER.id, now=at(night_of(1), "23:00"))
    await bot.outbox.flush()
    [summary] = [m for m in announced(bot) if "regular season is over" in m]
    assert "League regular-season leader: P4" in summary
    assert "Medieval Madness: P1 300,000,000 (week 1)" in summary


async def test_resending_an_earlier_week_after_the_season_posts_no_summary(
    league: FakeBot,
) -> None:
    """/league admin resend of week 1 once the season is over posts week 1's
    results again, not the season's summary (that belongs to its last week)."""
    bot = league
    await run(bot, "season setting", name="regular_nights", value="2")
    await play_week(bot, 1, WEEK)  # P3 and P4 swap groups (R8.3)
    await play_week(bot, 2, {1: 300_000_000, 2: 200_000_000, 4: 100_000_000,
                             3: 300_000_000, 5: 200_000_000, 6: 100_000_000})  # fmt: skip
    await bot.outbox.flush()
    before = len([m for m in announced(bot) if "regular season is over" in m])
    await run(bot, "admin resend", when=at(night_of(2), "23:30"), week=1)
    after = [m for m in announced(bot) if "regular season is over" in m]
    assert before == 1 and len(after) == 1
    assert any(m.startswith("Week 1 results") for m in announced(bot)[-3:])
