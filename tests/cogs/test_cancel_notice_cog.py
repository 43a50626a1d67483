"""/late cancel and /absent cancel: a player takes back their own notice (R2)."""

from __future__ import annotations

from datetime import date

from cogs.attendance.attendance_cog import Attendance
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, FakeBot, invoke
from tests.cogs.league_play import snapshot

COG = Attendance()
MONDAY = at(date(2026, 1, 5))


def told_commissioner(bot: FakeBot) -> list[str]:
    return [m.content for m in bot.channels[APPROVALS].sent]


async def test_r2_absent_cancel_takes_back_the_absence_for_that_date(league: FakeBot) -> None:
    bot = league
    await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], MONDAY), date="2026-02-04")
    said = await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], MONDAY), date="2026-02-04",
                        cancel=True)  # fmt: skip
    assert said.text == (
        "Your absence for week 5 (Wednesday 04 February) is taken back: you are expected as usual."
    )
    assert [r.ephemeral for r in said.replies] == [True]
    assert told_commissioner(bot)[-1] == "P1: took back their absence for week 5"


async def test_r2_late_cancel_takes_back_tonights_late_notice(league: FakeBot) -> None:
    bot = league
    await invoke(COG.late, COG, as_user(bot, PLAYERS[2], at(FIRST_NIGHT, "10:00")), minutes=15)
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[2], at(FIRST_NIGHT, "17:00")),
                        cancel=True)  # fmt: skip
    assert said.text.startswith("Your late notice for week 1 (Wednesday 07 January) is taken back")
    assert told_commissioner(bot)[-1] == "P2: took back their late notice for week 1"


async def test_r2_cancel_with_nothing_to_take_back_is_refused(league: FakeBot) -> None:
    bot = league
    await invoke(COG.absent, COG, as_user(bot, PLAYERS[1], MONDAY))
    before, posts = await snapshot(bot), told_commissioner(bot)
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[1], MONDAY), cancel=True)
    assert said.text == (
        "Your notice for week 1 (Wednesday 07 January) is an absence; take it back with "
        "/absent cancel:True."
    )
    said = await invoke(COG.late, COG, as_user(bot, PLAYERS[3], MONDAY), cancel=True)
    assert said.text == (
        "You have no late notice or absence for week 1 (Wednesday 07 January) to take back."
    )
    assert [r.ephemeral for r in said.replies] == [True]
    assert await snapshot(bot) == before
    assert told_commissioner(bot) == posts
