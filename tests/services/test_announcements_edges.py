"""The week's scheduled posts at their edges (R1.3, R2): who they name, when
they say they are late, and the nights that owe none."""

from __future__ import annotations

from datetime import date, timedelta

from bot.services import (
    announcements,
    approvals,
    attendance,
    finalize,
    membership,
    picks,
    scores,
    skips,
)
from bot.services.outcomes.posts import CutoffPost, GracePost, LockPost, NoticeLine
from bot.ui import render
from tests.services.conftest import COMMISSIONER, GUILD, SEASON_START, at, discord_id

NIGHT = SEASON_START  # Wednesday 7 January 2026, week 1
P1, P2, P3 = discord_id(1), discord_id(2), discord_id(3)


async def test_r2_2_the_cutoff_post_names_a_player_removed_after_giving_notice(players) -> None:
    """R2.2: P3 sent an absence, then left the league before 15:00: the cutoff
    post still names P3, not a question mark."""
    db = players
    await attendance.notify(db, GUILD, P3, "absent", now=at(NIGHT, "10:00"))
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "14:00"))
    post = await announcements.due(db, GUILD, "cutoff", at(NIGHT, "15:00"))
    assert post is not None and isinstance(post.content, CutoffPost)
    assert post.content.notices == [NoticeLine("P3", "absent", None)]
    assert "- P3: absent" in render.post(post)


async def test_r2_3_the_grace_post_names_a_player_removed_while_the_night_is_played(
    players,
) -> None:
    """R2.3: P3 is removed after the picks lock, stays in the night, and sent no
    notice and no score: the grace post names P3."""
    db = players
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    await membership.remove_player(db, GUILD, "P3", now=at(NIGHT, "19:20"))
    await attendance.notify(db, GUILD, P2, "late", minutes=10, now=at(NIGHT, "19:21"))
    await scores.submit(db, GUILD, P1, 1, 1_000, now=at(NIGHT, "19:25"))
    post = await announcements.due(db, GUILD, "grace", at(NIGHT, "19:30"))
    assert post is not None and isinstance(post.content, GracePost)
    assert post.content.missing == ["P3"]


async def test_a_post_exactly_two_minutes_after_its_time_does_not_say_it_is_late(
    players,
) -> None:
    """R1.3: a post says it is late only when made more than two minutes after
    its time, and only when the bot was offline at that time."""
    db = players
    due_at = at(NIGHT, "15:00")
    offline = [(due_at - timedelta(hours=1), due_at + timedelta(minutes=1))]
    on_time = await announcements.due(db, GUILD, "cutoff", at(NIGHT, "15:02"), offline=offline)
    assert on_time is not None and not on_time.late
    assert "Posted late" not in render.post(on_time)
    late = await announcements.due(
        db, GUILD, "cutoff", due_at + timedelta(minutes=2, seconds=1), offline=offline
    )
    assert late is not None and late.late
    assert "(Posted late: the bot was offline at 15:00.)" in render.post(late)


async def test_a_bot_that_stopped_exactly_at_a_posts_time_was_running_then(players) -> None:
    """An offline span that begins at the very moment a post is due: the bot was
    still running at that moment, so the post does not say it is late."""
    db = players
    due_at = at(NIGHT, "15:00")
    offline = [(due_at, due_at + timedelta(hours=1))]
    post = await announcements.due(db, GUILD, "cutoff", at(NIGHT, "16:00"), offline=offline)
    assert post is not None and not post.late


async def test_r1_2_a_skipped_dates_notice_made_late_says_so(players) -> None:
    """R1.2: the one-line notice of a skipped date, made after the bot was
    offline at 12:00, says it is late like every other post."""
    db = players
    await skips.skip_date(db, GUILD, NIGHT, "snow", now=at(date(2026, 1, 5)))
    offline = [(at(NIGHT, "11:00"), at(NIGHT, "13:00"))]
    post = await announcements.due(db, GUILD, "groupings", at(NIGHT, "13:00"), offline=offline)
    assert post is not None and post.late and post.key == "skip:2026-01-07"
    assert render.post(post) == (
        "No league night today (Wednesday 07 January): the commissioner skipped this date.\n"
        "(Posted late: the bot was offline at 12:00.)"
    )


async def test_a_day_without_a_league_night_owes_no_post(players) -> None:
    """R1.3: on a Thursday, after every post's time, nothing is owed."""
    db = players
    for kind in announcements.KINDS:
        assert (
            await announcements.due(db, GUILD, kind, at(NIGHT + timedelta(days=1), "23:00")) is None
        )


async def test_a_night_finalized_before_the_grace_time_owes_no_grace_post(players) -> None:
    """R2.3: every score is in and the night finalized by 19:29: the 19:30 post
    asking about missing players is not made."""
    db = players
    await picks.lock_picks(db, GUILD, now=at(NIGHT, "19:15"))
    for player, score in ((P1, 300_000_000), (P2, 200_000_000), (P3, 100_000_000)):
        for game in range(1, 6):
            await scores.submit(db, GUILD, player, game, score, now=at(NIGHT, "19:20"))
    await approvals.approve_all(db, GUILD, "1", by=COMMISSIONER, now=at(NIGHT, "19:25"))
    await finalize.finalize(db, GUILD, by=COMMISSIONER, now=at(NIGHT, "19:29"))
    assert await announcements.due(db, GUILD, "grace", at(NIGHT, "19:30")) is None


async def test_locking_a_night_of_one_group_by_command_gives_its_lock_post(players) -> None:
    """R4.4: `/league night lock` for a night of one group makes the same lock
    post as the 19:15 job: keyed by the night's date, for its week."""
    db = players
    locked = await picks.lock_picks(db, GUILD, now=at(NIGHT, "18:00"))
    assert len(locked) == 1
    post = await announcements.lock_post(db, GUILD, locked)
    assert post is not None
    assert (post.key, post.day, post.late) == ("lock:2026-01-07", NIGHT, False)
    assert isinstance(post.content, LockPost) and post.content.week == 1
    assert render.post(post).startswith(render.locked(locked, 1))


async def test_a_post_once_claimed_is_not_owed_again(players) -> None:
    """A post's key is claimed once: the second claim owes nothing."""
    db = players
    now = at(NIGHT, "15:00")
    assert await announcements.enqueue(db, GUILD, "cutoff:2026-01-07", "text", now=now)
    assert not await announcements.enqueue(db, GUILD, "cutoff:2026-01-07", "text", now=now)
