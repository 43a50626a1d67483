"""`/playoffs field` for everyone and `/playoffs date` for the commissioner
(R13.1, R13.3, R13.4): the answers, the announcement and its pings, and the
refusals."""

from __future__ import annotations

from datetime import date

from bot.services import setup
from cogs.attendance.attendance_cog import Attendance
from cogs.playoffs.playoffs_cog import Playoffs
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, Said, invoke, shown
from tests.cogs.league_play import play_week
from tests.moments import SETTING_AT

# How the tests that go over every command invoke these (tests/cogs/examples.py).
EXAMPLES = [Example("playoffs", Playoffs(), "field", {}, before_the_lock=True)]

COG = Playoffs()
MONDAY = at(date(2026, 1, 5))
SIX = {n: (700 - 100 * n) * 1_000_000 for n in range(1, 7)}  # every game: P1 > P2 > … > P6


async def field(bot: FakeBot, player: int = 1, when=MONDAY) -> Said:
    return await invoke(COG.field, COG, as_user(bot, PLAYERS[player], when))


async def move(bot: FakeBot, typed: str, *, user=COMMISSIONER, when=MONDAY) -> Said:
    return await invoke(COG.move, COG, as_user(bot, user, when), date=typed)


def announced(bot: FakeBot) -> list[str]:
    return [shown(m) for m in bot.channels[ANNOUNCEMENTS].sent if shown(m).startswith("**Playoff")]


async def one_night_played(bot: FakeBot) -> FakeBot:
    """A season of one night, played and finalized: P1 > P2 > … > P6."""
    await setup.change_setting(bot.db, GUILD, "regular_nights", 1, now=SETTING_AT)
    await play_week(bot, 1, SIX)
    await bot.outbox.flush()  # as /league night finalize would
    return bot


async def test_r13_3_before_playoff_night_is_set_field_shows_the_season_as_it_stands(
    league: FakeBot,
) -> None:
    said = await field(league)
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text.startswith("**Playoffs** (not set yet)\nA final group in each division")
    # 6 players // 3 = 2 spots (R13.1); nobody has played: sign-up order.
    assert said.text.endswith(
        "If the season ended tonight:\nLeague: 1. P1, 2. P2\n  Alternates, in order: P3, P4, P5"
    )


async def test_r13_4_the_last_night_finalized_announces_playoff_night_and_pings_the_field(
    league: FakeBot,
) -> None:
    bot = await one_night_played(league)
    (post,) = announced(bot)
    assert post.startswith("**Playoffs: Wednesday 14 January**\nPlay starts at 19:15.")
    # Two groups of three: the group winners P1 and P4 lead the standings (R11.1).
    assert "League: 1. P1, 2. P4\n  Alternates, in order: P2, P5, P3" in post
    (message,) = [m for m in bot.channels[ANNOUNCEMENTS].sent if "Playoffs:" in shown(m)]
    assert message.pinged == [PLAYERS[n].id for n in (1, 4, 2, 5, 3)]  # not P6: far down
    said = await field(bot, 6)
    assert said.text.startswith("**Playoffs: Wednesday 14 January**\nPlay starts at 19:15.")


async def test_r13_4_the_commissioner_moves_playoff_night(league: FakeBot) -> None:
    bot = await one_night_played(league)
    said = await move(bot, "2026-01-21")
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == (
        "Playoff night is now Wednesday 21 January (it was Wednesday 14 January). The players "
        "in the field and the first alternates are told in the announcements channel."
    )
    assert announced(bot)[-1].startswith(
        "**Playoff night moves to Wednesday 21 January** (it was Wednesday 14 January)"
    )
    assert (await field(bot)).text.startswith("**Playoffs: Wednesday 21 January**")


async def test_r13_4_moving_playoff_night_is_the_commissioners_and_bad_dates_are_refused(
    league: FakeBot,
) -> None:
    bot = await one_night_played(league)
    said = await move(bot, "2026-01-21", user=PLAYERS[1])
    assert [r.ephemeral for r in said.replies] == [True] and "commissioner" in said.text
    for typed, why in (
        ("next week", "'next week' is not a date; type it as 2026-03-11 or 3/11/2026."),
        ("2026-02-30", "'2026-02-30' is not a real date."),
        ("2026-01-07", "Playoff night comes after the last regular night (Wednesday 07 "
                       "January 2026)."),
    ):  # fmt: skip
        said = await move(bot, typed)
        assert said.text == why and [r.ephemeral for r in said.replies] == [True]
    assert len(announced(bot)) == 1
    assert (await field(bot)).text.startswith("**Playoffs: Wednesday 14 January**")


async def test_r13_4_no_playoff_night_to_move_before_the_last_night(league: FakeBot) -> None:
    said = await move(league, "2026-03-25")
    assert said.text == "Playoff night is set when the last regular night, week 10, is finalized."
    assert announced(league) == []


PLAYOFF_NIGHT = date(2026, 1, 14)


async def checkin(bot: FakeBot, players: str, *, user=COMMISSIONER, clock="19:00") -> Said:
    return await invoke(COG.checkin, COG, as_user(bot, user, at(PLAYOFF_NIGHT, clock)),
                        players=players)  # fmt: skip


async def test_r13_5_check_in_then_the_grace_post_replaces_who_is_not_there(
    league: FakeBot,
) -> None:
    """P1 and the first alternate P2 are checked in, P4 (seed 2) is not: at the
    end of the grace period the scheduler's post says P2 takes the place."""
    bot = await one_night_played(league)
    said = await checkin(bot, "P1, P2")
    assert said.text == "Checked in: P1, P2."
    said = await checkin(bot, "p1")
    assert said.text == "Already checked in: P1."
    await bot.scheduler.post("grace", at(PLAYOFF_NIGHT, "19:30"))
    await bot.outbox.flush()
    grace = next(m for m in bot.channels[ANNOUNCEMENTS].sent if "grace period" in shown(m))
    assert shown(grace) == (
        "**Playoffs: the grace period is over (19:30).**\n"
        "- P4 is not checked in: P2 takes the place.\n"
        "The field, seeded by standing:\n"
        "League: 1. P1, 2. P2\n  Alternates, in order: P5, P3, P6"
    )
    said = await invoke(COG.undo, COG, as_user(bot, COMMISSIONER, at(PLAYOFF_NIGHT, "19:40")),
                        player="P4")  # fmt: skip
    assert said.text == (
        "P4 plays after all and is checked in. P2 is an alternate again. The field is "
        "announced again."
    )
    assert announced(bot)[-1].startswith("**Playoffs: Wednesday 14 January** (field updated)")
    assert "League: 1. P1, 2. P4" in announced(bot)[-1]


async def test_r13_5_check_in_and_undo_are_the_commissioners(league: FakeBot) -> None:
    bot = await one_night_played(league)
    said = await checkin(bot, "P1", user=PLAYERS[1])
    assert "commissioner" in said.text and [r.ephemeral for r in said.replies] == [True]
    said = await invoke(COG.undo, COG, as_user(bot, PLAYERS[1], at(PLAYOFF_NIGHT, "19:40")),
                        player="P4")  # fmt: skip
    assert "commissioner" in said.text
    said = await checkin(bot, "P1, Nobody")
    assert said.text == "'Nobody' is not in the playoff field or among its alternates."
    said = await checkin(bot, " , ")
    assert said.text == "Name the players who came, separated by commas."


async def test_r13_2_absent_for_playoff_night_says_what_happens(league: FakeBot) -> None:
    bot = await one_night_played(league)
    attendance = Attendance()
    said = await invoke(attendance.absent, attendance,
                        as_user(bot, PLAYERS[4], at(date(2026, 1, 10))))  # fmt: skip
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == (
        "Noted: P4 cannot come to playoff night (Wednesday 14 January). If you are in the "
        "field, the first alternate who is there takes your place at 19:30, unless the "
        "commissioner moves playoff night. Changed your mind? /absent cancel:True takes it back."
    )
    said = await invoke(attendance.late, attendance,
                        as_user(bot, PLAYERS[4], at(date(2026, 1, 10))))  # fmt: skip
    assert said.text.startswith("Playoff night has no late notices")
