"""A player removed while their night is being played: that night still counts
for them, and the commissioner can still finish it by their name."""

from __future__ import annotations

import pytest

from bot.database import Database
from bot.repositories import cards, leagues, nights
from bot.services import approvals, attendance, finalize, membership, picks, score_changes, scores
from bot.services.context import season_of
from bot.services.errors import NotFound, NotReady
from cogs.money import money
from cogs.scorecards import scorecards
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id

P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)
NIGHT = SEASON_START


async def removed_mid_night(db: Database) -> None:
    """P1-P3 in one group; the picks lock, P3 is removed, P1 and P2 play all five games."""
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    done = await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:30"))
    assert done.player.removed and done.playing_week == 1
    for player, score in ((P1, 300_000_000), (P2, 200_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, player, game, score, now=at(NIGHT, "20:00"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "22:00"))
    with pytest.raises(NotReady, match="Missing scores: P3 on game 1"):
        await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))


async def test_a_removed_player_can_be_marked_absent_and_the_night_finalized(players) -> None:
    db = players
    await removed_mid_night(db)
    given = await attendance.mark(db, GUILD, "p3", "absent", by=COMMISSIONER,
                                  now=at(NIGHT, "22:30"))  # fmt: skip
    assert given.player.name == "P3"
    summary = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    (group,) = summary.groups
    assert [(name, row.attendance) for name, row in group.rows] == [
        ("P1", "present"),
        ("P2", "present"),
        ("P3", "absent"),
    ]
    assert all("P3" not in names for _, names in summary.next_groups)  # gone from week 2


async def test_a_removed_players_scores_can_be_entered_and_their_dues_recorded(players) -> None:
    db = players
    await removed_mid_night(db)
    for game in range(1, 6):
        await score_changes.change(
            db, GUILD, week=1, player_name="P3", game_number=game, kind="correction",
            reason="played, removed after", new_score=1000, by=COMMISSIONER, now=at(NIGHT, "22:30"),
        )  # fmt: skip
    await money.record_dues(db, GUILD, "P3", 1, by=COMMISSIONER, now=at(NIGHT, "22:40"))
    summary = await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "23:00"))
    assert [name for name, _ in summary.groups[0].rows][-1] == "P3"


async def test_a_removed_player_is_not_found_for_a_night_they_were_not_in(players) -> None:
    db = players
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "09:00"))  # before week 1
    with pytest.raises(NotFound, match="no player called 'P3'"):
        await attendance.mark(db, GUILD, "P3", "absent", by=COMMISSIONER, now=at(NIGHT, "12:00"))


async def test_the_group_card_shows_the_scores_entered_for_a_removed_player(players) -> None:
    """The commissioner enters P3's game 1 after P3 left: the group's card shows it
    under P3's name, though P3 is no longer expected to submit."""
    db = players
    await removed_mid_night(db)
    await score_changes.change(
        db, GUILD, week=1, player_name="P3", game_number=1, kind="correction",
        reason="played, removed after", new_score=1000, by=COMMISSIONER, now=at(NIGHT, "22:30"),
    )  # fmt: skip
    async with db.read() as conn:
        ctx = await season_of(conn, GUILD)
        night = await leagues.night_by_date(conn, ctx.season.id, NIGHT)
        (group,) = await nights.groups(conn, night.id)
        card = await cards.card_of_group(conn, group.id)
    view = await scorecards.card(db, card.id)
    game_1 = view.games[0]
    assert [(line.player, line.score) for line in game_1.lines][-1] == ("P3", 1000)
