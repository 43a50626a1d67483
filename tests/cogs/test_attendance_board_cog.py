"""A league night's attendance board for the commissioner (R2): posted in the
approvals channel with the day's groupings, kept current as notices, scores
and check-ins come in, with the menus that check players in on the night.
Only a commissioner checks players in, only on league night, only players of
tonight's groups; a forged id or a finalized night changes nothing."""

from __future__ import annotations

from datetime import time
from typing import Any

from bot.models import Night
from bot.repositories import leagues
from bot.services import membership, scores, setup, skips
from bot.services.outcomes.notices import AttendanceBoard, BoardLine
from cogs.attendance.attendance_text import board as board_words
from cogs.attendance.attendance_views import CheckInSelect, UndoSelect
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    APPROVALS,
    GUILD,
    FakeBot,
    FakeMessage,
    card_text,
    click,
    shown,
    submit_modal,
)
from tests.cogs.league_play import lock, night_of, play_week
from tests.cogs.test_attendance_buttons_cog import groupings_buttons, night_id

TONIGHT = at(FIRST_NIGHT, "19:10")


def boards(bot: FakeBot) -> list[FakeMessage]:
    return [m for m in bot.channels[APPROVALS].sent
            if m.embeds and (m.embeds[0].title or "").startswith("Attendance")]  # fmt: skip


def board(bot: FakeBot) -> tuple[str, Any]:
    """The board as it reads now (its last edit), and its menus."""
    (message,) = [m for m in boards(bot) if not m.deleted]
    return card_text(message), message.view


def menu(view: Any, prefix: str) -> Any:
    return next(c for c in view.children if c.item.custom_id.startswith(prefix))


async def test_r2_the_board_comes_with_the_groupings_and_lists_everyone(league: FakeBot) -> None:
    await groupings_buttons(league)
    text, view = board(league)
    assert text.splitlines() == [
        "Attendance · week 1 · Wednesday 7 January",
        "**In (0):** nobody yet",
        "**Not heard from (6):** P1, P2, P3, P4, P5, P6",
        "Check players in as they arrive, from the menu below.",
    ]
    options = [(o.label, o.description) for o in menu(view, "attend:in:").item.options]
    assert options[0] == ("P1", "Group 1") and options[5] == ("P6", "Group 2")


async def test_r2_the_board_follows_the_players_notices(league: FakeBot) -> None:
    late, absent, cancel = await groupings_buttons(league)
    opened = await click(late, as_user(league, PLAYERS[2], at(FIRST_NIGHT, "14:00")))
    assert opened.modal is not None
    await submit_modal(opened.modal, as_user(league, PLAYERS[2], at(FIRST_NIGHT, "14:00")),
                       minutes="20", note="traffic")  # fmt: skip
    await click(absent, as_user(league, PLAYERS[5], at(FIRST_NIGHT, "14:05")))
    text, _ = board(league)
    assert "**Late (1):**\n- P2, about 20 min (by 19:35): “traffic”" in text
    assert "**Out (1):** P5" in text
    assert "**Not heard from (4):** P1, P3, P4, P6" in text
    await click(cancel, as_user(league, PLAYERS[5], at(FIRST_NIGHT, "15:30")))
    assert "**Not heard from (5):** P1, P3, P4, P5, P6" in board(league)[0]
    assert len(boards(league)) == 1  # edited in place, never posted twice


async def test_r2_the_commissioner_checks_players_in_from_the_board(league: FakeBot) -> None:
    await groupings_buttons(league)
    _, view = board(league)
    said = await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER, TONIGHT), ["1", "3"])
    assert said.text == "Checked in: P1, P3."
    assert said.replies[0].ephemeral
    text, view = board(league)
    assert "**In (2):** P1, P3" in text
    assert [o.label for o in menu(view, "attend:in:").item.options] == ["P2", "P4", "P5", "P6"]
    said = await click(menu(view, "attend:undo:"), as_user(league, COMMISSIONER, TONIGHT), ["3"])
    assert said.text == "Check-in taken back: P3."
    assert "**In (1):** P1" in board(league)[0]


async def test_r2_a_player_with_a_score_tonight_is_in(league: FakeBot) -> None:
    await groupings_buttons(league)
    await lock(league)
    await scores.submit(league.db, GUILD, PLAYERS[4].id, 1, 300_000_000,
                        now=at(FIRST_NIGHT, "19:40"))  # fmt: skip
    await league.outbox.flush()
    assert "**In (1):** P4" in board(league)[0]


async def test_r2_only_a_commissioner_checks_players_in(league: FakeBot) -> None:
    await groupings_buttons(league)
    _, view = board(league)
    said = await click(menu(view, "attend:in:"), as_user(league, PLAYERS[1], TONIGHT), ["1"])
    assert "commissioner" in said.text.lower()
    assert "**In (0):** nobody yet" in board(league)[0]


async def test_r2_check_in_is_on_league_night_itself(league: FakeBot) -> None:
    await groupings_buttons(league)
    _, view = board(league)
    said = await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER,
                       at(FIRST_NIGHT.replace(day=6), "19:00")), ["1"])  # fmt: skip
    assert said.text == ("Check-in is on league night itself (Wednesday 07 January); notices "
                         "before it are the players' own.")  # fmt: skip
    assert "**In (0):** nobody yet" in board(league)[0]


async def test_r2_a_forged_board_menu_changes_nothing(league: FakeBot) -> None:
    await groupings_buttons(league)
    night = await night_id(league, 1)
    forged = CheckInSelect(999_999, 1, [])
    said = await click(forged.item, as_user(league, COMMISSIONER, TONIGHT), ["-"])
    assert said.text == "That attendance board is not one of this league's nights."
    stranger = UndoSelect(night, 1, [])
    said = await click(stranger.item, as_user(league, COMMISSIONER, TONIGHT), ["-"])
    assert said.text == "Pick players of tonight's groups from the menu."
    assert "**In (0):** nobody yet" in board(league)[0]


async def test_r2_a_finalized_nights_board_loses_its_menus(league: FakeBot) -> None:
    await groupings_buttons(league)
    await play_week(league, 1, {n: (10 - n) * 100_000_000 for n in range(1, 7)})
    await league.outbox.flush()
    text, view = board(league)
    assert "**In (6):** P1, P2, P3, P4, P5, P6" in text
    assert text.endswith("The night is finalized.") and view is None


async def test_r2_a_deleted_board_is_posted_again_while_the_night_is_open(
    league: FakeBot,
) -> None:
    _, absent, _ = await groupings_buttons(league)
    (first,) = boards(league)
    first.deleted = True  # someone deleted it in Discord
    await click(absent, as_user(league, PLAYERS[6], at(FIRST_NIGHT, "13:00")))
    text, _ = board(league)
    assert "**Out (1):** P6" in text and len(boards(league)) == 2


async def test_r2_3_checking_in_a_player_who_said_they_were_out_takes_the_absence_back(
    league: FakeBot,
) -> None:
    """P5 said they could not come, then came: checked in, they play (their
    group may enter their scores again), and the board shows them in."""
    _, absent, _ = await groupings_buttons(league)
    await click(absent, as_user(league, PLAYERS[5], at(FIRST_NIGHT, "13:00")))
    _, view = board(league)
    said = await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER, TONIGHT), ["5"])
    assert said.text == "Checked in: P5."
    text, _ = board(league)
    assert "**In (1):** P5" in text and "Out" not in text
    await lock(league)
    stored = await scores.submit(league.db, GUILD, PLAYERS[4].id, 1, 250_000_000,
                                 player=PLAYERS[5].id, now=at(FIRST_NIGHT, "19:40"))  # fmt: skip
    assert stored.player.name == "P5"  # a group mate enters P5's score: no longer absent


async def test_r2_a_check_in_of_a_player_who_left_tonights_groups_checks_in_the_others(
    league: FakeBot,
) -> None:
    await groupings_buttons(league)
    _, view = board(league)  # P6 is still on the menu …
    await membership.remove_player(league.db, GUILD, "P6", now=at(FIRST_NIGHT, "18:00"))
    said = await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER, TONIGHT),
                       ["1", "6"])  # fmt: skip
    assert said.text == "Checked in: P1. P6: not in tonight's groups any more."
    assert "**In (1):** P1" in board(league)[0]


async def test_r2_a_players_note_stays_on_its_own_line_of_the_board(league: FakeBot) -> None:
    late, _, _ = await groupings_buttons(league)
    opened = await click(late, as_user(league, PLAYERS[2], at(FIRST_NIGHT, "14:00")))
    assert opened.modal is not None
    forged = "stuck\n**In (12):** everyone\nreally"
    await submit_modal(opened.modal, as_user(league, PLAYERS[2], at(FIRST_NIGHT, "14:00")),
                       minutes="5", note=forged)  # fmt: skip
    text, _ = board(league)
    assert "- P2, about 5 min (by 19:20): “stuck **In (12):** everyone really”" in text
    assert [line for line in text.splitlines() if line.startswith("**In")] == [
        "**In (0):** nobody yet"
    ]


async def test_r2_a_checked_in_player_is_not_listed_as_unheard_from_at_the_grace(
    league: FakeBot,
) -> None:
    await groupings_buttons(league)
    _, view = board(league)
    await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER, TONIGHT), ["1", "2"])
    await lock(league)
    await league.scheduler.post("grace", at(FIRST_NIGHT, "19:30"))
    await league.outbox.flush()
    grace = shown(league.channels[ANNOUNCEMENTS].sent[-1])
    assert "No notice and no score yet from: P3, P4, P5, P6." in grace


async def test_r1_2_a_night_moved_by_a_skipped_date_gets_a_new_board(league: FakeBot) -> None:
    """Week 1's groupings went out, then the commissioner skips the date: week 1
    moves a week on, and its groupings that day come with a board of that day."""
    await groupings_buttons(league)
    await skips.skip_date(league.db, GUILD, FIRST_NIGHT, "flooded", now=at(FIRST_NIGHT, "13:00"))
    await league.scheduler.post("groupings", at(night_of(2), "12:00"))
    await league.outbox.flush()
    titles = [card_text(m).splitlines()[0] for m in boards(league)]
    assert titles == ["Attendance · week 1 · Wednesday 7 January",
                      "Attendance · week 1 · Wednesday 14 January"]  # fmt: skip


async def test_r1_1_a_season_shortened_after_a_boards_night_loses_that_night(
    league: FakeBot,
) -> None:
    """A night whose board was posted (a check-in kept on it) can still be cut
    from the season while it is unplayed: here week 2 of 2, cut to 1 night."""
    await setup.change_setting(league.db, GUILD, "regular_nights", 2, now=at(FIRST_NIGHT))
    await play_week(league, 1, {n: (10 - n) * 100_000_000 for n in range(1, 7)})
    await groupings_buttons(league, week=2)
    board_of_week_2 = boards(league)[-1]
    view = board_of_week_2.view
    assert view is not None
    await click(menu(view, "attend:in:"), as_user(league, COMMISSIONER,
                                                  at(night_of(2), "19:10")), ["1"])  # fmt: skip
    await setup.change_setting(league.db, GUILD, "regular_nights", 1, now=at(night_of(2), "19:20"))
    async with league.db.read() as conn:
        weeks = [n.week for n in await leagues.nights(conn, 1) if n.kind == "regular"]
    assert weeks == [1]


def test_r2_a_board_too_long_for_discord_is_cut_between_lines_and_says_so() -> None:
    """Forty late players with long names and notes: more than an embed's 4,096
    characters. The board keeps whole lines and ends saying the rest is cut."""
    night = Night(1, 1, 3, FIRST_NIGHT, "scheduled", None)
    late = [BoardLine(n, f"Player with a long name number {n:02}", "Group 1", 20,
                      time(19, 35), "stuck in traffic " * 12) for n in range(40)]  # fmt: skip
    _, text = board_words(AttendanceBoard(night, [], late, [], [], [], True, None))
    assert len(text) <= 4096 and text.endswith("\n… (the rest does not fit here)")
    assert text.startswith("**In (0):** nobody yet\n**Late (40):**")
    assert all(line.endswith("…”") for line in text.splitlines()[2:-1])  # notes cut at a word
