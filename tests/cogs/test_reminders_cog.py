"""Reminders that respect people (/remind): off until a member opts in; on
league day with the groupings, before the late-notice cutoff (the time, the
group, and the buttons to say one is late or cannot come); after the grace
period when a score is still missing; for a commissioner, scores still
waiting. Each by DM through the outbox, once, never as a public ping."""

from __future__ import annotations

from bot.repositories import leagues, nights
from bot.services import attendance, outbox, scores, setup, skips
from cogs.attendance.attendance_cog import Attendance
from cogs.reminders.reminders_cog import Reminders
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import ANNOUNCEMENTS, GUILD, FakeBot, FakeMember, click, invoke, shown
from tests.cogs.league_play import lock, night_of, play_week
from tests.cogs.test_sender_edges import ClosedDMs

EXAMPLES = [Example("remind", Reminders(), "remind", {"league_day": True})]

COG = Reminders()
MONDAY = at(FIRST_NIGHT.replace(day=5), "10:00")


async def remind(bot: FakeBot, member: FakeMember, **options: bool) -> str:
    said = await invoke(COG.remind, COG, as_user(bot, member, MONDAY), **options)
    assert said.replies and all(r.ephemeral for r in said.replies)
    return said.text


def dms(bot: FakeBot, member: FakeMember) -> list[str]:
    channel = bot.dms.get(member.id)
    return [m.content for m in channel.sent] if channel is not None else []


async def test_remind_shows_every_reminder_off_until_a_member_opts_in(league: FakeBot) -> None:
    assert await remind(league, PLAYERS[1]) == (
        "Your reminders:\n"
        "- off: league day, before the late-notice cutoff: your time and group\n"
        "- off: after the grace period, when one of your scores is still missing\n"
        "- off: after the night, scores still waiting for approval (commissioners)\n"
        "They come as DMs: at most three a night, and none if your DMs are closed."
    )
    said = await remind(league, PLAYERS[1], league_day=True, missing_scores=True)
    assert said.startswith("Your reminders are saved:\n- on: league day")
    assert "- on: after the grace period" in said and "- off: after the night" in said
    said = await remind(league, PLAYERS[1], missing_scores=False)
    assert "- on: league day" in said and "- off: after the grace period" in said


async def test_remind_refuses_what_is_not_for_the_member_and_changes_nothing(
    league: FakeBot,
) -> None:
    said = await remind(league, PLAYERS[2], waiting_scores=True)
    assert said == "Only a commissioner can get reminders of scores waiting for approval."
    stranger = FakeMember(800000000000000099, "Zed")
    said = await remind(league, stranger, league_day=True)
    assert said == ("These reminders are for the league's players, and you are not one: ask "
                    "the commissioner to add you.")  # fmt: skip
    assert "- off: league day" in await remind(league, PLAYERS[2])
    assert "- on: after the night" in await remind(league, COMMISSIONER, waiting_scores=True)


async def groupings(bot: FakeBot, clock: str = "12:00") -> None:
    await bot.scheduler.post("groupings", at(FIRST_NIGHT, clock))
    await bot.outbox.flush()


async def sweep_at(bot: FakeBot, clock: str) -> None:
    """The scheduler's sweep (every few minutes) at `clock` on league night."""
    scheduler = bot.scheduler
    await scheduler.rebuild()  # its jobs, in the league's zone (not started: none runs)
    scheduler.clock = lambda: at(FIRST_NIGHT, clock)
    await scheduler.sweep()
    await bot.outbox.flush()


async def test_on_league_day_an_opted_in_player_gets_their_time_group_and_buttons(
    league: FakeBot,
) -> None:
    await remind(league, PLAYERS[1], league_day=True)
    await groupings(league)
    (dm,) = league.dms[PLAYERS[1].id].sent
    assert dm.content == ("**League night tonight** · week 1 at 19:15, Group 1 with P2 and P3.\n"
                          "Running late or can't come? Tell us by 15:00 with one tap:")  # fmt: skip
    assert dm.view is not None
    assert [c.item.label for c in dm.view.children] == [
        "Running late…", "Can't make it", "Cancel my notice"]  # fmt: skip
    assert dms(league, PLAYERS[2]) == []  # never asked for it
    # Tapped in the DM (no server there): the absence is the player's, in their league.
    tap = as_user(league, PLAYERS[1], at(FIRST_NIGHT, "12:30"))
    tap.guild_id = None
    said = await click(dm.view.children[1], tap)
    assert said.text.startswith("Noted: P1 will be absent on week 1")
    async with league.db.read() as conn:
        night = await leagues.night_by_week(conn, 1, 1)
        assert night is not None
        assert [(n.player_id, n.kind) for n in await nights.notices(conn, night.id)] == [
            (1, "absent")
        ]


async def test_no_league_day_reminder_after_the_cutoff_or_once_a_notice_is_given(
    league: FakeBot,
) -> None:
    await remind(league, PLAYERS[1], league_day=True)
    await remind(league, PLAYERS[2], league_day=True)
    absent = Attendance()
    await invoke(absent.absent, absent, as_user(league, PLAYERS[2], at(FIRST_NIGHT, "09:00")))
    await groupings(league, "15:30")  # the bot was down at 12:00: posted after the cutoff
    assert dms(league, PLAYERS[1]) == [] and dms(league, PLAYERS[2]) == []
    assert league.channels[ANNOUNCEMENTS].sent  # the groupings themselves went out


async def test_missing_scores_are_reminded_once_two_hours_after_the_grace(
    league: FakeBot,
) -> None:
    await remind(league, PLAYERS[1], missing_scores=True)
    await remind(league, PLAYERS[4], missing_scores=True)
    await groupings(league)
    await lock(league)
    for game in (1, 2, 3, 4, 5):
        await scores.submit(league.db, GUILD, PLAYERS[4].id, game, 100_000_000,
                            now=at(FIRST_NIGHT, "20:00"))  # fmt: skip
    await scores.submit(league.db, GUILD, PLAYERS[1].id, 1, 100_000_000,
                        now=at(FIRST_NIGHT, "20:00"))  # fmt: skip
    for clock in ("21:29", "21:30", "21:45"):  # the sweep every few minutes: once
        await sweep_at(league, clock)
    (dm,) = dms(league, PLAYERS[1])
    assert dm.startswith("**Week 1** · your score is not in yet for game 2 (")
    assert " and game 5 (" in dm and dm.endswith("Send it with /score in the league's server.")
    assert dms(league, PLAYERS[4]) == []  # every score in


async def test_a_commissioner_is_reminded_of_scores_still_waiting(league: FakeBot) -> None:
    await remind(league, COMMISSIONER, waiting_scores=True)
    await groupings(league)
    await lock(league)
    await scores.submit(league.db, GUILD, PLAYERS[2].id, 1, 100_000_000,
                        now=at(FIRST_NIGHT, "20:00"))  # fmt: skip
    for clock in ("22:29", "22:30", "23:00"):
        await sweep_at(league, clock)
    assert dms(league, COMMISSIONER) == [
        "**Week 1** · 1 score is still waiting for approval in the approvals channel."
    ]


async def test_a_reminder_to_closed_dms_is_dropped_never_posted_in_public(
    league: FakeBot,
) -> None:
    await remind(league, PLAYERS[1], league_day=True)
    league.dms[PLAYERS[1].id] = ClosedDMs(PLAYERS[1].id)
    before = len(league.channels[ANNOUNCEMENTS].sent)
    await groupings(league)
    posted = [shown(m) for m in league.channels[ANNOUNCEMENTS].sent[before:]]
    assert len(posted) == 1 and posted[0].startswith("Week 1 · Wednesday")  # the groupings only
    assert not any(f"<@{PLAYERS[1].id}>" in text for text in posted)
    report = await outbox.status(league.db, GUILD)
    assert report.failed == []  # nothing for the commissioner to resend


async def test_a_no_show_is_not_told_their_scores_are_missing(league: FakeBot) -> None:
    """Only a player who is there (checked in, or with a score) is reminded."""
    await remind(league, PLAYERS[2], missing_scores=True)
    await groupings(league)
    await lock(league)
    await sweep_at(league, "21:30")
    assert dms(league, PLAYERS[2]) == []


async def test_a_reminder_owed_but_no_longer_true_when_sent_is_not_sent(league: FakeBot) -> None:
    """P1's league-day reminder is owed with the groupings; P1 says they are
    out before the outbox sends it: the DM would ask them to tell us, so it is
    not sent."""
    await remind(league, PLAYERS[1], league_day=True)
    await league.scheduler.post("groupings", at(FIRST_NIGHT, "12:00"))  # owed, not yet sent
    await attendance.notify(league.db, GUILD, PLAYERS[1].id, "absent",
                            now=at(FIRST_NIGHT, "12:00"))  # fmt: skip
    await league.outbox.flush()
    assert dms(league, PLAYERS[1]) == []


async def test_r1_2_a_night_moved_by_a_skipped_date_is_reminded_of_on_its_new_date(
    league: FakeBot,
) -> None:
    await remind(league, PLAYERS[1], league_day=True)
    await groupings(league)
    await skips.skip_date(league.db, GUILD, FIRST_NIGHT, "flooded", now=at(FIRST_NIGHT, "13:00"))
    await league.scheduler.post("groupings", at(night_of(2), "12:00"))
    await league.outbox.flush()
    first, second = dms(league, PLAYERS[1])
    assert first.startswith("**League night tonight** · week 1") and second == first


async def test_r1_1_a_night_with_reminders_sent_can_still_be_cut_from_the_season(
    league: FakeBot,
) -> None:
    await setup.change_setting(league.db, GUILD, "regular_nights", 2, now=at(FIRST_NIGHT))
    await play_week(league, 1, {n: (10 - n) * 100_000_000 for n in range(1, 7)})
    await remind(league, PLAYERS[1], league_day=True)
    await league.scheduler.post("groupings", at(night_of(2), "12:00"))
    await league.outbox.flush()
    assert len(dms(league, PLAYERS[1])) == 1
    await setup.change_setting(league.db, GUILD, "regular_nights", 1, now=at(night_of(2), "13:00"))
    async with league.db.read() as conn:
        assert [n.week for n in await leagues.nights(conn, 1) if n.kind == "regular"] == [1]
