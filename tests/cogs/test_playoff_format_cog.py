"""`/league season setting` for the playoff format (R13.3): the commissioner's
reply, and the players told in the announcements channel once the format was
made known."""

from __future__ import annotations

from datetime import date

from discord import app_commands

from cogs.commissioner import Commissioner
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, FakeBot, Said, invoke, shown
from tests.cogs.league_play import lock

COG = Commissioner()
SETTING = next(
    c for c in COG.walk_app_commands()
    if isinstance(c, app_commands.Command) and c.qualified_name == "league season setting"
)  # fmt: skip
MONDAY = at(date(2026, 1, 5))


async def setting(bot: FakeBot, name: str, value: str, *, user=COMMISSIONER) -> Said:
    return await invoke(SETTING, COG, as_user(bot, user, MONDAY), name=name, value=value)


def announced(bot: FakeBot) -> list[str]:
    return [shown(m) for m in bot.channels[ANNOUNCEMENTS].sent]


async def test_r13_3_the_format_changes_quietly_before_it_is_made_known(league: FakeBot) -> None:
    said = await setting(league, "playoff_format", "bracket")
    assert said.text == "playoff_format is now bracket."
    assert [r.ephemeral for r in said.replies] == [True]
    assert announced(league) == []


async def test_r13_3_a_change_after_the_format_was_made_known_is_announced(
    league: FakeBot,
) -> None:
    """A season of one night: its groupings make the format known; once the
    night is under way, a change is announced to the players."""
    bot = league
    await setting(bot, "regular_nights", "1")
    await lock(bot)
    said = await setting(bot, "playoff_best_of", "5")
    assert said.text == "playoff_best_of is now 5. The change is announced to the players."
    said = await setting(bot, "playoff_format", "Bracket")
    assert said.text == "playoff_format is now bracket. The change is announced to the players."
    first, second = announced(bot)
    assert first.startswith(
        "**The playoffs have changed**\nA final group in each division: the field plays 5 games"
    )
    assert second.startswith(
        "**The playoffs have changed**\nA bracket in each division: single elimination by "
        "seed, each match best of 5 games."
    )
    assert (
        "If the season ended tonight:\nLeague: 1. P1, 2. P2\n  Alternates, in order: P3" in second
    )


async def test_r13_3_bad_format_values_are_refused_privately_and_change_nothing(
    league: FakeBot,
) -> None:
    bot = league
    for name, value, why in (
        ("playoff_format", "=HYPERLINK(1)", "playoff_format is bracket or final group."),
        ("playoff_best_of", "4", "playoff_best_of must be odd (1, 3, 5, 7 or 9), not 4: a "
                                  "match must have a winner."),
        ("playoff_games", "11", "playoff_games must be a whole number from 1 to 10."),
    ):  # fmt: skip
        said = await setting(bot, name, value)
        assert said.text == why and [r.ephemeral for r in said.replies] == [True]
    assert announced(bot) == []
    said = await setting(bot, "playoff_format", "bracket", user=PLAYERS[1])
    assert "commissioner" in said.text and announced(bot) == []
