"""Players leaving at the edges (R12.4): before any season, and after the
night was locked without them."""

from __future__ import annotations

from datetime import date

from bot.database import Database
from bot.services import membership, picks, setup
from tests.services.conftest import GUILD, SEASON_START, at, discord_id


async def test_a_player_is_removed_before_any_season(db: Database) -> None:
    await setup.create_league(db, GUILD, "League", now=at(date(2026, 1, 1)))
    await membership.add_player(
        db, GUILD, "Ann", discord_id=discord_id(1), now=at(date(2026, 1, 1))
    )
    done = await membership.remove_player(db, GUILD, "Ann", now=at(date(2026, 1, 2)))
    assert (done.player.removed, done.playing_week) == (True, None)


async def test_a_player_who_joined_after_the_lock_is_not_playing_that_night(
    players: Database,
) -> None:
    """Tonight is locked with P1-P3; Dan joined after, so removing Dan says
    nothing of tonight, while removing P3 does (R12.4)."""
    db = players
    await picks.lock_picks(db, GUILD, now=at(SEASON_START, "19:15"))
    await membership.add_player(db, GUILD, "Dan", discord_id=discord_id(9),
                                now=at(SEASON_START, "19:30"))  # fmt: skip
    dan = await membership.remove_player(db, GUILD, "Dan", now=at(SEASON_START, "20:00"))
    p3 = await membership.remove_player(db, GUILD, "P3", now=at(SEASON_START, "20:05"))
    assert (dan.playing_week, p3.playing_week) == (None, 1)
