"""/rules [topic]: the rules in plain words with this league's numbers."""

from __future__ import annotations

import re
from datetime import date, time

from bot.services import setup
from cogs.rulebook.rulebook_cog import Rulebook
from cogs.rulebook.rulebook_text import TOPICS, sections
from tests.cogs.conftest import PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import GUILD, FakeBot, invoke
from tests.moments import SETTING_AT

# How the tests that go over every command invoke it (tests/cogs/examples.py).
EXAMPLES = [Example("rules", Rulebook(), "rules")]

COG = Rulebook()
MONDAY = at(date(2026, 1, 5))
RULE_ID = re.compile(r"\bR\d+(\.\d+)?\b")


async def test_rules_without_a_topic_lists_every_topic_privately(league: FakeBot) -> None:
    said = await invoke(COG.rules, COG, as_user(league, PLAYERS[1], MONDAY))
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text.startswith("**League rules.**")
    assert all(name in said.text for name in TOPICS)


async def test_late_notices_use_this_leagues_times_r1_3_r2_1(league: FakeBot) -> None:
    bot = league
    await setup.set_league_time(bot.db, GUILD, "late_cutoff", time(14, 30))
    await setup.set_league_time(bot.db, GUILD, "grace_until", time(19, 45))
    said = await invoke(COG.rules, COG, as_user(bot, PLAYERS[1], MONDAY), topic="late notices")
    assert [r.ephemeral for r in said.replies] == [True]
    assert "before 14:30" in said.text and "past 19:45" in said.text
    assert "15:00" not in said.text and "19:30" not in said.text
    assert said.text.endswith(
        "Full text: the league's rules document, “Calendar and times” and "
        "“Attendance, late notices and absences”."
    )


async def test_topics_carry_the_seasons_settings_r3_5_r10_1(league: FakeBot) -> None:
    bot = league
    await setup.change_setting(bot.db, GUILD, "pre_makeup_night_limit", 2, now=SETTING_AT)
    await setup.change_setting(bot.db, GUILD, "dues_cents", 800, now=SETTING_AT)
    await setup.change_setting(bot.db, GUILD, "prize_places_a", "40,20,10", now=SETTING_AT)
    user = as_user(bot, PLAYERS[1], MONDAY)
    absences = await invoke(COG.rules, COG, user, topic="Absences and PRE-MAKEUPS ")
    assert "at most 2 nights a season" in absences.text
    money = await invoke(COG.rules, COG, as_user(bot, PLAYERS[1], MONDAY), topic="dues and prizes")
    assert "Dues are $8.00 a night" in money.text and "75% of the pot, the next 25%" in money.text
    assert "division A's places in the ratio 40:20:10, and the next player 20% of its second" in (
        money.text
    )


async def test_every_topic_fits_one_message_and_names_no_rule_id(league: FakeBot) -> None:
    for name in TOPICS:
        said = await invoke(COG.rules, COG, as_user(league, PLAYERS[1], MONDAY), topic=name)
        assert len(said.replies) == 1 and len(said.text) <= 2000, name
        assert said.text.startswith(f"**Rules: {name}**")
        assert not RULE_ID.search(said.text), (name, said.text)


async def test_unknown_topic_is_refused_with_the_list(league: FakeBot) -> None:
    said = await invoke(COG.rules, COG, as_user(league, PLAYERS[1], MONDAY), topic="tilt bob")
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text.startswith("There is no rules topic “tilt bob”. Topics: late notices, ")


async def test_a_topic_before_any_season_names_the_fix(bot: FakeBot) -> None:
    said = await invoke(COG.rules, COG, as_user(bot, PLAYERS[1], MONDAY), topic="playoffs")
    assert [r.ephemeral for r in said.replies] == [True]
    assert "/league" in said.text


async def test_topics_autocomplete_by_what_is_typed(league: FakeBot) -> None:
    user = as_user(league, PLAYERS[1], MONDAY)
    assert [c.value for c in await COG.topics(user, "")] == list(TOPICS)
    assert [c.value for c in await COG.topics(user, "ZERO")] == ["Zero Point Rule"]
    assert [c.value for c in await COG.topics(user, "pre")] == ["absences and pre-makeups"]
    assert [c.value for c in await COG.topics(user, "no such")] == list(TOPICS)


def test_every_topic_names_a_section_of_the_shipped_rules_document() -> None:
    """The bot reads docs/rules.md from the package (tests/test_packaging.py ships it)."""
    titles = sections()
    assert titles["R3"] == "Pre-makeup scores" and len(titles) == 13
    assert all(s in titles for t in TOPICS.values() for s in t.sections)


async def test_every_topic_carries_the_setting_it_names(league: FakeBot) -> None:
    """Each number a topic gives is this league's, not the default: play time
    (R1.3), games a night (R5), the multiplier's first week (R7.4), the
    two-swap threshold (R8.5), divisions' smallest league (R9.1), the pot's
    first share (R10.2), the regular nights (R13) and the playoff format (R13.3)."""
    bot = league
    await setup.set_league_time(bot.db, GUILD, "play_time", time(19, 30))
    for name, value in (("games_per_night", 4), ("multiplier_start_week", 3),
                        ("two_swap_match_points", 12), ("division_min_players", 10),
                        ("payout_first_percent", 60), ("regular_nights", 12),
                        ("playoff_format", "bracket"), ("playoff_best_of", 5)):  # fmt: skip
        await setup.change_setting(bot.db, GUILD, name, value, now=SETTING_AT)

    async def topic(name: str) -> str:
        said = await invoke(COG.rules, COG, as_user(bot, PLAYERS[1], MONDAY), topic=name)
        return said.text

    assert "Play starts at 19:30." in await topic("late notices")
    assert "A group plays 4 games a night." in await topic("scoring and par")
    assert "From week 3, bonus points are multiplied" in await topic("bonus and multipliers")
    assert "12 MP and the two going down scored no more" in await topic("groups and movement")
    assert "With 10 or more players, the league splits" in await topic("divisions")
    assert "takes 60% of the pot, the next 40%" in await topic("dues and prizes")
    playoffs = await topic("playoffs")
    assert "After the last of the 12 regular nights" in playoffs
    assert (
        "A bracket in each division: single elimination by seed, each match best of 5" in playoffs
    )
