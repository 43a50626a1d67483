"""R10.4 with divisions (R9): each division's prizes, whoever joined late (R8.6)."""

from __future__ import annotations

from datetime import date

from bot.database import Database
from bot.services import membership, setup
from cogs.money import money
from tests.moments import SETTING_AT
from tests.services.conftest import GUILD, add_machines, add_players, at
from tests.services.test_season import play_week


async def test_r10_4_a_player_who_joined_after_divisions_does_not_take_division_a_prizes(
    league: Database,
) -> None:
    # Divisions form at week 2 (a setting, R9.1) of a 2-night season; a player
    # who joins after the last night is in no group and counts at the bottom of B
    # (R8.6). Before the fix, that player made a second "A" division that
    # replaced the real one, and division A's winners got nothing.
    db = league
    await setup.change_setting(db, GUILD, "division_week", 2, now=SETTING_AT)
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=SETTING_AT)
    await add_players(db, 10)
    await add_machines(db, 6)
    await play_week(db, 1)
    await play_week(db, 2)
    before = await money.prizes(db, GUILD)
    assert set(before.divisions) == {"A", "B"}
    await membership.add_player(db, GUILD, "Newbie", discord_id=7777, skill=5,
                                now=at(date(2026, 1, 16)))  # fmt: skip
    after = await money.prizes(db, GUILD)
    assert list(after.divisions) == ["A", "B"]
    assert after.divisions["A"] == before.divisions["A"]
    assert "Newbie" not in [share.player for share in after.divisions["A"]]
    paid = sum(share.cents for shares in after.divisions.values() for share in shares)
    assert paid == after.fund_cents > 0
