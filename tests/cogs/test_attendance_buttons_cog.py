"""Attendance in one tap (R2, R3): the buttons under the day's groupings post
and a player's own /me. "Running late…" opens a form and does what /late
does, the cutoff included; "Can't make it" does what /absent does, saying how
each game will be scored; "Cancel my notice" takes back either. Each acts for
the player who taps it, answers privately, and a tap made for a night that is
over, of another league, or with a forged id changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from bot.repositories import leagues, nights, people
from cogs.attendance.attendance_views import AbsentButton, CancelButton, LateButton
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    APPROVALS,
    FakeBot,
    click,
    invoke,
    shown,
    submit_modal,
)
from tests.cogs.league_play import approved_pre_makeup, night_of, play_week

NOON = at(FIRST_NIGHT, "12:00")
ME = Standings()


async def groupings_buttons(bot: FakeBot, week: int = 1) -> list[Any]:
    """The day's groupings post, made by the scheduler at 12:00: its buttons."""
    await bot.scheduler.post("groupings", at(night_of(week), "12:00"))
    await bot.outbox.flush()
    post = bot.channels[ANNOUNCEMENTS].sent[-1]
    assert post.view is not None, shown(post)
    return list(post.view.children)


async def notices(bot: FakeBot, week: int = 1) -> dict[str, str]:
    """The live notices of week `week`: player name -> kind (and minutes)."""
    async with bot.db.read() as conn:
        night = await leagues.night_by_week(conn, 1, week)
        assert night is not None
        names = {p.id: p.name for p in await people.players(conn, 1)}
        return {
            names[n.player_id]: n.kind + (f" {n.minutes}" if n.minutes else "")
            for n in await nights.notices(conn, night.id)
        }


def tap(bot: FakeBot, player: int, when: Any = NOON) -> Any:
    return as_user(bot, PLAYERS[player], when)


async def test_r2_1_the_groupings_post_carries_the_three_buttons(league: FakeBot) -> None:
    labels = [(b.item.label, b.item.custom_id) for b in await groupings_buttons(league)]
    night = await night_id(league, 1)
    assert labels == [
        ("Running late…", f"attend:late:{night}"),
        ("Can't make it", f"attend:absent:{night}"),
        ("Cancel my notice", f"attend:cancel:{night}"),
    ]


async def night_id(bot: FakeBot, week: int) -> int:
    async with bot.db.read() as conn:
        night = await leagues.night_by_week(conn, 1, week)
    assert night is not None
    return night.id


async def test_r2_1_running_late_opens_a_form_then_does_what_late_does(league: FakeBot) -> None:
    late, _, _ = await groupings_buttons(league)
    opened = await click(late, tap(league, 2, at(FIRST_NIGHT, "14:00")))
    assert opened.modal is not None and opened.modal.title == "Running late"
    said = await submit_modal(opened.modal, tap(league, 2, at(FIRST_NIGHT, "14:00")),
                              minutes="20", note="traffic")  # fmt: skip
    assert said.replies[0].ephemeral
    assert said.text.startswith("Noted: P2 will be late about 20 minutes on week 1")
    assert "before the 15:00 late-notice cutoff" in said.text
    assert await notices(league) == {"P2": "late 20"}
    copy = shown(league.channels[APPROVALS].sent[-1])
    assert "P2" in copy and "20" in copy and "traffic" in copy


async def test_r2_2_running_late_after_the_cutoff_says_the_group_will_not_wait(
    league: FakeBot,
) -> None:
    late, _, _ = await groupings_buttons(league)
    when = at(FIRST_NIGHT, "16:30")
    opened = await click(late, tap(league, 3, when))
    assert opened.modal is not None
    said = await submit_modal(opened.modal, tap(league, 3, when), minutes="", note="")
    assert "after the 15:00 late-notice cutoff: your group will not wait past 19:30" in said.text
    assert await notices(league) == {"P3": "late"}


async def test_r3_cant_make_it_says_how_each_game_is_scored(league: FakeBot) -> None:
    """P1 has a pre-makeup score on Attack from Mars only (R3.2, R3.4)."""
    await approved_pre_makeup(league, 1, "Attack from Mars", 400_000_000)
    _, absent, _ = await groupings_buttons(league)
    said = await click(absent, tap(league, 1))
    assert said.replies and all(r.ephemeral for r in said.replies)
    assert said.text.startswith("Noted: P1 will be absent on week 1")
    assert "- Attack from Mars: your pre-makeup score 400,000,000" in said.text
    assert "- Medieval Madness: no pre-makeup score, Zero Point Rule (0 points)" in said.text
    assert await notices(league) == {"P1": "absent"}


async def test_r2_cancel_my_notice_takes_back_either_notice(league: FakeBot) -> None:
    late, absent, cancel = await groupings_buttons(league)
    await click(absent, tap(league, 4))
    said = await click(cancel, tap(league, 4))
    assert said.text == ("Your absence for week 1 (Wednesday 07 January) is taken back: you "
                         "are expected as usual.")  # fmt: skip
    assert await notices(league) == {}
    opened = await click(late, tap(league, 5))
    assert opened.modal is not None
    await submit_modal(opened.modal, tap(league, 5), minutes="10", note="")
    said = await click(cancel, tap(league, 5))
    assert said.text.startswith("Your late notice for week 1")
    assert await notices(league) == {}


async def test_r2_cancel_with_no_notice_is_refused_and_changes_nothing(league: FakeBot) -> None:
    _, _, cancel = await groupings_buttons(league)
    said = await click(cancel, tap(league, 6))
    assert said.text == ("You have no late notice or absence for week 1 (Wednesday 07 January) "
                         "to take back.")  # fmt: skip
    assert said.replies[0].ephemeral


async def test_r2_a_button_acts_for_the_player_who_taps_it_only(league: FakeBot) -> None:
    """Everybody sees the same buttons; each tap is the tapper's own notice."""
    _, absent, cancel = await groupings_buttons(league)
    await click(absent, tap(league, 1))
    await click(absent, tap(league, 2))
    await click(cancel, tap(league, 2))  # P2 cancels: P1's absence stands
    assert await notices(league) == {"P1": "absent"}


async def test_r2_a_non_player_is_told_so(league: FakeBot) -> None:
    _, absent, _ = await groupings_buttons(league)
    said = await click(absent, tap(league, 7))  # P7 never joined
    assert "not a player" in said.text
    assert await notices(league) == {}


async def test_r2_last_weeks_buttons_change_nothing(league: FakeBot) -> None:
    _, absent, _ = await groupings_buttons(league)
    await play_week(league, 1, {n: (10 - n) * 100_000_000 for n in range(1, 7)})
    said = await click(absent, tap(league, 1, at(FIRST_NIGHT + timedelta(days=2))))
    assert said.text == ("Week 1 on 07 January is over; /groups shows the next night, and /me "
                         "has its buttons.")  # fmt: skip
    assert await notices(league, 2) == {}


async def test_r2_a_forged_night_id_changes_nothing(league: FakeBot) -> None:
    """A custom id naming a night of no season of this league (another
    server's, or made up) finds nothing; the form never opens."""
    for forged in (LateButton(999_999), AbsentButton(999_999), CancelButton(999_999)):
        said = await click(forged.item, tap(league, 1))
        assert said.modal is None
        assert said.text == "Those buttons are not for a night of this league's season."
    assert await notices(league) == {}


async def test_r2_a_late_form_with_bad_minutes_is_refused_and_changes_nothing(
    league: FakeBot,
) -> None:
    late, _, _ = await groupings_buttons(league)
    for bad in ("0", "241", "ten", "-5", "1e3", "2.5"):
        opened = await click(late, tap(league, 2))
        assert opened.modal is not None
        said = await submit_modal(opened.modal, tap(league, 2), minutes=bad, note="")
        assert said.text == "Say how late you will be in minutes, from 1 to 240 (e.g. 20)."
    assert await notices(league) == {}


async def test_r2_me_carries_the_next_nights_buttons_for_the_player_themself(
    league: FakeBot,
) -> None:
    said = await invoke(ME.me, ME, tap(league, 1, at(FIRST_NIGHT - timedelta(days=1))))
    view = said.replies[-1].view
    assert view is not None
    night = await night_id(league, 1)
    assert [c.item.custom_id for c in view.children] == [
        f"attend:late:{night}",
        f"attend:absent:{night}",
        f"attend:cancel:{night}",
    ]
    other = await invoke(ME.me, ME, tap(league, 1), player=PLAYERS[2])
    assert other.replies[-1].view is None  # another player's /me: no buttons to act for them
