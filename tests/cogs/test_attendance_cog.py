"""/late and /absent: which part of R2 applies, and what an absence costs (R3)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from bot.services import setup, skips
from cogs.attendance.attendance_cog import Attendance
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, invoke
from tests.cogs.league_play import (
    MACHINES,
    approved_pre_makeup,
    lock,
    night_of,
    play_week,
    snapshot,
)
from tests.moments import SETTING_AT

# How the tests that go over every command invoke these (tests/cogs/examples.py).
EXAMPLES = [
    Example("late", Attendance(), "late", {"minutes": 10}, before_the_lock=True),
    Example("absent", Attendance(), "absent", before_the_lock=True),
]

COG = Attendance()
ADVANCE = "You told us before league day: the commissioner decides whether your group waits."
ON_TIME = (
    "You told us before the 15:00 late-notice cutoff: "
    "the commissioner decides whether your group waits."
)
AFTER_CUTOFF = (
    "This notice came after the 15:00 late-notice cutoff: your group will not wait past 19:30. "
    "You have no pre-makeup scores: games you miss get 0 points (the Zero Point Rule)."
)


def utc(when: datetime) -> datetime:
    """Discord stamps interactions in UTC; the league's day is New York's (R1.3)."""
    return when.astimezone(UTC)


# --- /late --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("when", "timing", "rule"),
    [
        # Tuesday 21:00 in New York is already Wednesday 02:00 UTC: still advance (R2.1).
        (at(date(2026, 1, 6), "21:00"), "advance", ADVANCE),
        (at(FIRST_NIGHT, "14:59"), "on time", ON_TIME),
        (at(FIRST_NIGHT, "15:00"), "after cutoff", AFTER_CUTOFF),
    ],
)
async def test_late_states_the_rule_that_applies_and_tells_the_commissioner(
    league: FakeBot, when: datetime, timing: str, rule: str
) -> None:
    bot = league
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], utc(when)), minutes=20,
                        note="stuck in traffic")  # fmt: skip
    assert said.deferred is True
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == (
        f"Noted: P1 will be late about 20 minutes on week 1 (Wednesday 07 January).\n{rule}"
    )
    assert [m.content for m in bot.channels[APPROVALS].sent] == [
        f"P1: late for week 1, about 20 min ({timing}) — “stuck in traffic”"
    ]


async def test_late_without_minutes_or_note(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[4], at(FIRST_NIGHT, "18:00")))
    assert said.text == (
        f"Noted: P4 will be late on week 1 (Wednesday 07 January).\n{AFTER_CUTOFF}"
    )
    assert bot.channels[APPROVALS].sent[-1].content == "P4: late for week 1 (after cutoff)"


async def test_the_cutoff_and_grace_are_the_leagues_settings(league: FakeBot) -> None:
    bot = league
    await setup.set_league_time(bot.db, GUILD, "late_cutoff", time(14, 30))
    await setup.set_league_time(bot.db, GUILD, "grace_until", time(19, 45))
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "14:30")))
    assert "after the 14:30 late-notice cutoff: your group will not wait past 19:45." in said.text


async def test_late_after_the_last_night_is_refused(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    # Ten Wednesdays from 7 January: the last is 11 March (R1.1).
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(date(2026, 3, 12))))
    assert said.text == (
        "There are no more league nights this season. "
        "The commissioner can start the next season with /league season start."
    )
    assert [r.ephemeral for r in said.replies] == [True]
    assert bot.channels[APPROVALS].sent == []
    assert await snapshot(bot) == before


async def test_late_after_tonight_is_finalized_is_for_next_week(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, {n: 100_000_000 * n for n in range(1, 7)})
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "23:30")))
    assert said.text.split("\n")[0] == "Noted: P1 will be late on week 2 (Wednesday 14 January)."
    assert "You told us before league day:" in said.text
    assert bot.channels[APPROVALS].sent[-1].content == "P1: late for week 2 (advance)"


async def test_late_with_no_season_or_no_league_names_the_fix(bot: FakeBot) -> None:
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT)))
    assert said.text == (
        "This server has no league yet. The commissioner can start one with /league season setup."
    )
    await setup.create_league(bot.db, GUILD, "League", now=at(FIRST_NIGHT))
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT)))
    assert said.text == (
        "There is no season running. The commissioner can start one with /league season start."
    )
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT)))
    assert "/league season" in said.text
    assert bot.channels[APPROVALS].sent == []


@pytest.mark.parametrize("command", ["late", "absent"])
async def test_someone_who_is_not_a_player_is_refused(league: FakeBot, command: str) -> None:
    bot = league
    before = await snapshot(bot)
    said = await invoke(getattr(COG, command), COG, as_user(bot, PLAYERS[7], at(FIRST_NIGHT)))
    assert said.text == "You are not a player in this league. Ask the commissioner to add you."
    assert [r.ephemeral for r in said.replies] == [True]
    assert bot.channels[APPROVALS].sent == []
    assert await snapshot(bot) == before


# --- /absent ------------------------------------------------------------------------------


async def test_absent_before_picks_lock_lists_every_working_machine(league: FakeBot) -> None:
    bot = league
    await approved_pre_makeup(bot, 1, "Attack from Mars", 400_000_000)
    await approved_pre_makeup(bot, 1, "Twilight Zone", 250_000_000)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))),
                        note="away")  # fmt: skip
    assert said.deferred is True and [r.ephemeral for r in said.replies] == [True]
    zero = "no pre-makeup score, Zero Point Rule (0 points)"
    assert said.text.split("\n") == [
        "Noted: P1 will be absent on week 1 (Wednesday 07 January).",
        "Pre-makeup nights left before this one: 3 (this night will use one).",  # R3.5
        "- Attack from Mars: your pre-makeup score 400,000,000",  # R3.2
        f"- Medieval Madness: {zero}",  # R3.4
        "- Twilight Zone: your pre-makeup score 250,000,000",
        f"- The Addams Family: {zero}",
        f"- Monster Bash: {zero}",
        f"- Theatre of Magic: {zero}",
        "The games are set when picks lock at 19:15; the list shows every working machine.",
    ]
    notices = [m.content for m in bot.channels[APPROVALS].sent if m.view is None]
    assert notices[-1] == "P1: absent for week 1 (advance) — “away”"
    assert len([n for n in notices if n.startswith("P1: absent")]) == 1


async def test_absent_after_picks_lock_lists_the_groups_games(league: FakeBot) -> None:
    bot = league
    await approved_pre_makeup(bot, 1, "Twilight Zone", 250_000_000)
    await approved_pre_makeup(bot, 1, "Monster Bash", 90_000_000)
    await lock(bot)  # no vetoes: Attack from Mars, first in machine order, is vetoed (R4.5)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "19:20")))
    zero = "no pre-makeup score, Zero Point Rule (0 points)"
    assert said.text.split("\n")[1:] == [
        "Pre-makeup nights left before this one: 3 (this night will use one).",
        f"- Game 1 · Medieval Madness: {zero}",
        "- Game 2 · Twilight Zone: your pre-makeup score 250,000,000",
        f"- Game 3 · The Addams Family: {zero}",
        "- Game 4 · Monster Bash: your pre-makeup score 90,000,000",
        f"- Game 5 · Theatre of Magic: {zero}",
    ]
    assert bot.channels[APPROVALS].sent[-1].content == "P1: absent for week 1 (after cutoff)"


async def test_absent_counts_the_pre_makeup_nights_already_used(league: FakeBot) -> None:
    bot = league
    for machine in MACHINES:
        await approved_pre_makeup(bot, 1, machine, 500_000_000)
    await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))))
    # P1 misses week 1: every game is scored from a pre-makeup score, so the
    # night counts against the limit of 3 (R3.5).
    await play_week(bot, 1, {2: 200_000_000, 3: 100_000_000, 4: 3, 5: 2, 6: 1})
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))),
                        date="2026-01-14")  # fmt: skip
    assert said.text.split("\n")[:3] == [
        "Noted: P1 will be absent on week 2 (Wednesday 14 January).",
        "Pre-makeup nights left before this one: 2 (this night will use one).",
        "- Attack from Mars: your pre-makeup score 500,000,000",
    ]


async def test_absent_past_the_limit_is_the_zero_point_rule_everywhere(league: FakeBot) -> None:
    bot = league
    await setup.change_setting(bot.db, GUILD, "pre_makeup_night_limit", 0, now=SETTING_AT)
    await approved_pre_makeup(bot, 1, "Attack from Mars", 400_000_000)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))))
    lines = said.text.split("\n")
    assert lines[1] == (
        "You have no pre-makeup nights left: the Zero Point Rule (0 points) applies to every game."
    )
    assert len(lines) == 2 + 6 + 1
    # R3.6: the pre-makeup score still stands in for the others, but P1 scores 0.
    assert lines[2] == (
        "- Attack from Mars: your pre-makeup score 400,000,000 stands in for the others, "
        "but you score 0"
    )
    assert all("Zero Point Rule (0 points)" in line for line in lines[3:8])


async def test_absent_with_no_pre_makeup_scores_uses_no_pre_makeup_night(league: FakeBot) -> None:
    """R3.5: a night counts only when one of the player's games used a pre-makeup score."""
    bot = league
    await lock(bot)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[5], at(FIRST_NIGHT, "16:00")))
    assert (
        said.text.split("\n")[1]
        == "Pre-makeup nights left before this one: 3 (this night uses none)."
    )
    assert said.text.count("Zero Point Rule (0 points)") == 5


async def test_absent_on_a_date_that_is_not_a_league_night(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))),
                        date="2026-01-08")  # fmt: skip
    assert said.text == (
        "There is no league night on Thursday 08 January 2026. "
        "The next one is Wednesday 14 January."
    )
    await skips.skip_date(bot.db, GUILD, date(2026, 1, 14), "snow", now=at(date(2026, 1, 2)))
    before = await snapshot(bot)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))),
                        date="1/14/2026")  # fmt: skip
    assert said.text == (  # R1.2: the skipped night's week moved a week on
        "There is no league night on Wednesday 14 January 2026. "
        "The next one is Wednesday 21 January."
    )
    assert await snapshot(bot) == before
    assert bot.channels[APPROVALS].sent == []


async def test_absent_for_a_later_night_by_us_date(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))),
                        date="2/4/2026")  # fmt: skip
    assert said.text.startswith("Noted: P1 will be absent on week 5 (Wednesday 04 February).")


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("31/31/2026", "'31/31/2026' is not a real date."),
        ("2026-02-30", "'2026-02-30' is not a real date."),
        ("tomorrow", "'tomorrow' is not a date; type it as 2026-03-11 or 3/11/2026."),
        ("2026-1-14", "'2026-1-14' is not a date; type it as 2026-03-11 or 3/11/2026."),
    ],
)
async def test_absent_with_a_malformed_date(league: FakeBot, typed: str, message: str) -> None:
    bot = league
    before = await snapshot(bot)
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 5))),
                        date=typed)  # fmt: skip
    assert said.text == message
    assert [r.ephemeral for r in said.replies] == [True]
    assert bot.channels[APPROVALS].sent == []
    assert await snapshot(bot) == before


async def test_absent_for_a_night_that_is_over(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], at(night_of(2))),
                        date="2026-01-07")  # fmt: skip
    assert said.text == (
        "Week 1 on 07 January is over; a notice is for a coming night (/groups shows the next one)."
    )


async def test_late_after_cutoff_names_pre_makeups_only_for_a_player_who_has_them_r3_2(
    league: FakeBot,
) -> None:
    """R2.2, R3.2, R3.4: "scored from your pre-makeup scores" is said only where true."""
    bot = league
    await approved_pre_makeup(bot, 1, "Attack from Mars", 400_000_000)
    some = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "16:00")))
    assert some.text.endswith(
        "A game you miss is scored from your pre-makeup score on its machine, or gets 0 points "
        "(the Zero Point Rule) where you have none."
    )
    for machine in ["Medieval Madness", "Twilight Zone", "The Addams Family", "Monster Bash",
                    "Theatre of Magic"]:  # fmt: skip
        await approved_pre_makeup(bot, 1, machine, 300_000_000)
    every = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "16:05")))
    assert every.text.endswith("Games you miss are scored from your pre-makeup scores.")
    none = await invoke(COG.late, COG, as_user(bot, PLAYERS[2], at(FIRST_NIGHT, "16:10")))
    assert "pre-makeup scores." not in none.text
    assert none.text.endswith("You have no pre-makeup scores: games you miss get 0 points "
                              "(the Zero Point Rule).")  # fmt: skip
