"""A league night's attendance board for the commissioner (R2): posted in the
approvals channel with the day's groupings, kept current as notices, scores
and check-ins come in, with the menus that check players in on the night.
Only a commissioner checks players in, only on league night, only players of
tonight's groups; a forged id or a finalized night changes nothing."""

from __future__ import annotations

from typing import Any

from bot.services import scores
from cogs.attendance.attendance_views import CheckInSelect, UndoSelect
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, FakeMessage, card_text, click, submit_modal
from tests.cogs.league_play import lock, play_week
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
    assert "**Late (1):**\n- P2, about 20 min (by 19:35): traffic" in text
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
