"""/league skip: the commissioner's reply and the post that tells each player
whose late notice or absence for the skipped date is withdrawn (R1.2)."""

from __future__ import annotations

from datetime import date
from typing import Any

from bot.services import attendance, skips
from cogs.commissioner import Commissioner
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, Said, invoke
from tests.cogs.league_play import snapshot
from tests.services.conftest import notices_on

COG = Commissioner()
THURSDAY = at(date(2026, 1, 8))  # the day after week 1: /late is for 14 January


async def skip(bot: FakeBot, **options: Any) -> Said:
    """/league skip, wherever the command sits under /league."""
    command = next(c for c in COG.walk_app_commands() if c.name == "skip")
    return await invoke(command, COG, as_user(bot, COMMISSIONER, THURSDAY), **options)


def posts(bot: FakeBot) -> list[tuple[str, list[int]]]:
    return [(m.content, m.pinged) for m in bot.channels[ANNOUNCEMENTS].sent]


async def test_r1_2_skip_tells_each_player_whose_notice_for_the_date_is_withdrawn(
    league: FakeBot,
) -> None:
    bot = league
    p1, p2, p3 = PLAYERS[1].id, PLAYERS[2].id, PLAYERS[3].id
    await attendance.notify(bot.db, GUILD, p1, "absent", day=date(2026, 1, 14), now=THURSDAY)
    await attendance.notify(bot.db, GUILD, p2, "late", minutes=10, now=THURSDAY)
    await attendance.notify(bot.db, GUILD, p3, "absent", day=date(2026, 1, 28), now=THURSDAY)
    said = await skip(bot, date="2026-01-14", reason="snow")
    assert said.text == (
        "14 January is skipped. Nights now: 1: 07 Jan, 2: 21 Jan, 3: 28 Jan, 4: 04 Feb, "
        "5: 11 Feb, 6: 18 Feb, 7: 25 Feb, 8: 04 Mar, 9: 11 Mar, 10: 18 Mar.\n"
        "2 late notices or absences withdrawn (the players are told in the announcements "
        "channel).\n"
        "1 late notice or absence for later dates kept with their dates."
    )
    assert all(r.ephemeral for r in said.replies)
    # One post; it pings the two players it tells, and nobody else.
    assert posts(bot) == [
        (
            "No league night on Wednesday 14 January: snow.\n"
            f"<@{p1}>, your absence for that date is withdrawn; nothing to do.\n"
            f"<@{p2}>, your late notice for that date is withdrawn; nothing to do.\n"
            "Late notices and absences given for later dates stay with their dates.",
            [p1, p2],
        )
    ]
    # P3 is still absent on 28 January, now week 3.
    night, notices = await notices_on(bot.db, date(2026, 1, 28), GUILD)
    assert (night.week, [n.kind for n in notices]) == (3, ["absent"])


async def test_r1_2_skip_with_no_notices_posts_one_line(league: FakeBot) -> None:
    bot = league
    said = await skip(bot, date="2026-01-14")
    assert said.text.endswith("9: 11 Mar, 10: 18 Mar.")
    assert posts(bot) == [("No league night on Wednesday 14 January.", [])]


async def test_r1_2_skip_of_a_bad_date_is_refused_and_changes_nothing(league: FakeBot) -> None:
    bot = league
    await attendance.notify(
        bot.db, GUILD, PLAYERS[1].id, "absent", day=date(2026, 1, 14), now=THURSDAY
    )
    before = await snapshot(bot)
    said = await skip(bot, date="2026-01-15")
    assert said.text == "Thursday 15 January 2026 is not a league night of this season."
    said = await skip(bot, date="15/01/2026")
    assert said.text.startswith("'15/01/2026' is not a")
    assert await snapshot(bot) == before
    assert posts(bot) == []
    await skips.skip_date(bot.db, GUILD, date(2026, 1, 14), now=THURSDAY)  # still skippable
