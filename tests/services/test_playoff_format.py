"""The playoff format as a season setting, made known with the groupings of the
8th regular night and announced when it changes after that (R13.3)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from bot.database import Database
from bot.models import OutboxItem
from bot.repositories import outbox_items
from bot.services import announcements, playoffs, setup
from bot.services.context import season_of
from bot.services.errors import BadInput
from bot.services.outcomes.playoffs import PlayoffFormat, PlayoffPreview
from bot.services.outcomes.posts import GroupingsPost
from bot.ui import embeds
from bot.ui.playoffs import format_changed
from tests.services.conftest import GUILD, SEASON_START, at, finalize_week_1

WEEK_2 = SEASON_START + timedelta(days=7)


async def owed(db: Database) -> list[OutboxItem]:
    async with db.read() as conn:
        return [i for i in await outbox_items.waiting(conn, GUILD) if i.kind == "playoff_format"]


async def format_of(db: Database) -> PlayoffFormat:
    async with db.read() as conn:
        return playoffs.format_of(await season_of(conn, GUILD))


async def two_nights_week_1_played(db: Database) -> Database:
    """P1-P3 (300M, 200M, 100M in every game), a season of two nights, week 1
    finalized: week 2's groupings make the format known."""
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=at(SEASON_START, "09:00"))
    await finalize_week_1(db)
    return db


async def test_r13_3_the_format_is_a_final_group_of_5_games_by_default(league: Database) -> None:
    assert await format_of(league) == PlayoffFormat("final_group", 5, 3)


@pytest.mark.parametrize(
    ("typed", "stored", "shown"),
    [("bracket", "bracket", "bracket"), ("  Final   Group ", "final_group", "final group"),
     ("final_group", "final_group", "final group"), ("GROUP", "final_group", "final group")],
)  # fmt: skip
async def test_r13_3_the_format_is_final_group_or_bracket(
    league: Database, typed: str, stored: str, shown: str
) -> None:
    if stored == "final_group":
        await setup.change_setting(league, GUILD, "playoff_format", "bracket", now=at(SEASON_START))
    changed = await setup.change_setting(
        league, GUILD, "playoff_format", typed, now=at(SEASON_START)
    )
    assert changed.shown == shown
    assert (await format_of(league)).format == stored


@pytest.mark.parametrize("typed", ["knockout", "", "bracket!", "=1+1", "final\u200bgroup"])
async def test_r13_3_another_format_is_refused_and_changes_nothing(
    league: Database, typed: str
) -> None:
    with pytest.raises(BadInput) as refused:
        await setup.change_setting(league, GUILD, "playoff_format", typed, now=at(SEASON_START))
    assert str(refused.value) == "playoff_format is bracket or final group."
    assert await format_of(league) == PlayoffFormat("final_group", 5, 3)


@pytest.mark.parametrize("best_of", [2, 4, 8])
async def test_r13_3_a_match_is_best_of_an_odd_number(league: Database, best_of: int) -> None:
    with pytest.raises(BadInput) as refused:
        await setup.change_setting(league, GUILD, "playoff_best_of", best_of, now=at(SEASON_START))
    assert str(refused.value) == (
        f"playoff_best_of must be odd (1, 3, 5, 7 or 9), not {best_of}: a match must have a winner."
    )
    assert (await format_of(league)).best_of == 3
    changed = await setup.change_setting(league, GUILD, "playoff_best_of", 5, now=at(SEASON_START))
    assert changed.shown == "5" and (await format_of(league)).best_of == 5


async def test_r13_3_a_change_before_the_format_is_known_is_not_announced(players) -> None:
    db = await two_nights_week_1_played(players)
    changed = await setup.change_setting(db, GUILD, "playoff_format", "bracket", now=at(WEEK_2))
    assert not changed.announced
    assert await owed(db) == []


async def test_r13_3_the_8th_nights_groupings_carry_the_format_and_the_field(players) -> None:
    """With two regular nights, week 2 is the night that makes the format known
    (the 8th or the last): its groupings say the format and the field if the
    season ended tonight; week 1's do not."""
    db = players
    await setup.change_setting(db, GUILD, "regular_nights", 2, now=at(SEASON_START, "09:00"))
    week_1 = await announcements.due(db, GUILD, "groupings", at(SEASON_START, "12:00"))
    assert week_1 is not None and isinstance(week_1.content, GroupingsPost)
    assert week_1.content.playoffs is None
    await finalize_week_1(db)
    await setup.change_setting(db, GUILD, "playoff_games", 4, now=at(WEEK_2, "09:00"))
    post = await announcements.due(db, GUILD, "groupings", at(WEEK_2, "12:00"))
    assert post is not None and isinstance(post.content, GroupingsPost)
    assert post.content.playoffs is not None
    assert post.content.playoffs.format == PlayoffFormat("final_group", 4, 3)
    # 3 players: 3 // 3 = 1 spot, clamped up to 2 (R13.1); P3 is the alternate.
    (league,) = post.content.playoffs.divisions
    assert (league.qualifiers, league.alternates) == (["P1", "P2"], ["P3"])
    fields = {f.name: f.value for m in embeds.groupings(post) for e in m for f in e.fields}
    assert fields["Playoffs"] == (
        "A final group in each division: the field plays 4 games together, scored as on a "
        "league night. Most points wins; a tie goes to the better normalized scores, then the "
        "better standing.\nIf the season ended tonight:\nLeague: 1. P1, 2. P2\n"
        "  Alternates, in order: P3"
    )


async def test_r13_3_a_change_after_the_format_is_known_is_announced_once(players) -> None:
    """After week 2's groupings went out, a change of the format is announced
    with the field as it then stands; each change once."""
    db = await two_nights_week_1_played(players)
    post = await announcements.due(db, GUILD, "groupings", at(WEEK_2, "12:00"))
    assert post is not None
    assert await announcements.enqueue(db, GUILD, post.key, "", now=at(WEEK_2, "12:00"))
    changed = await setup.change_setting(db, GUILD, "playoff_format", "bracket", now=at(WEEK_2))
    assert changed.announced
    (item,) = await owed(db)
    assert (item.target, item.ref) == ("announcements", "season:1")
    shown = PlayoffPreview.from_data(json.loads(item.data or "{}"))
    assert format_changed(shown) == (
        "**The playoffs have changed**\n"
        "A bracket in each division: single elimination by seed, each match best of 3 games. "
        "A game goes to the higher score; a tie is replayed. The higher seed picks the first "
        "machine, the loser of each game the next.\n"
        "If the season ended tonight:\nLeague: 1. P1, 2. P2\n  Alternates, in order: P3"
    )
    await setup.change_setting(db, GUILD, "playoff_max", 3, now=at(WEEK_2, "13:00"))
    await setup.change_setting(db, GUILD, "playoff_min", 3, now=at(WEEK_2, "13:01"))
    fields = [PlayoffPreview.from_data(json.loads(i.data or "{}")) for i in await owed(db)]
    assert [f.divisions[0].qualifiers for f in fields] == [["P1", "P2"]] * 2 + [["P1", "P2", "P3"]]


async def test_r13_3_a_setting_of_no_playoffs_concern_is_never_announced(players) -> None:
    db = await two_nights_week_1_played(players)
    post = await announcements.due(db, GUILD, "groupings", at(WEEK_2, "12:00"))
    assert post is not None
    await announcements.enqueue(db, GUILD, post.key, "", now=at(WEEK_2, "12:00"))
    changed = await setup.change_setting(db, GUILD, "dues_cents", 700, now=at(WEEK_2))
    assert not changed.announced and await owed(db) == []
