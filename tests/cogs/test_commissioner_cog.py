"""/league …: every commissioner command, refused for everyone else, and bad input."""

from __future__ import annotations

import dataclasses
from datetime import date, datetime
from typing import Any

import aiosqlite
import pytest
from discord import app_commands

from bot.services import announcements, approvals, attendance, membership, picks, scores
from bot.ui.replies import NotCommissioner
from cogs.attendance.attendance_cog import Attendance
from cogs.closing import closing
from cogs.commissioner import Commissioner
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    APPROVALS,
    GUILD,
    FakeBot,
    FakeMember,
    FakeRole,
    Said,
    invoke,
    shown,
)
from tests.cogs.league_play import (
    MACHINES,
    approved_pre_makeup,
    discord_id,
    lock,
    night_of,
    play_week,
    snapshot,
    submit_all,
)

COG = Commissioner()
# Every leaf of /league by its path below /league: "season setup", "night finalize", …
COMMANDS = {
    command.qualified_name.removeprefix("league "): command
    for command in COG.walk_app_commands()
    if isinstance(command, app_commands.Command)
}
MONDAY = at(date(2026, 1, 5))
TONIGHT = at(FIRST_NIGHT, "20:00")
ZED = FakeMember(800000000000000042, "Zed")
# Week 1: P1 300M, P2 200M, P3 100M on every game; P4 280M, P5 200M, P6 100M.
# R5.2: s1 > s2 + s3 never holds (300 = 200 + 100, 280 < 300): 3-2-1, MP 15, 10, 5.
WEEK_1 = {1: 300_000_000, 2: 200_000_000, 3: 100_000_000,
          4: 280_000_000, 5: 200_000_000, 6: 100_000_000}  # fmt: skip


async def run(
    bot: FakeBot,
    command: str,
    /,
    *,
    user: FakeMember = COMMISSIONER,
    when: datetime = MONDAY,
    **options: Any,
) -> Said:
    """/league <command> with `options`, as `user` at `when`."""
    return await invoke(COMMANDS[command], COG, as_user(bot, user, when), **options)


def announced(bot: FakeBot) -> list[str]:
    return [shown(m) for m in bot.channels[ANNOUNCEMENTS].sent]


def private(said: Said) -> bool:
    return bool(said.replies) and all(r.ephemeral for r in said.replies)


# --- setup, season and settings -----------------------------------------------------------


async def test_setup_then_seasons(bot: FakeBot) -> None:
    said = await run(bot, "season setup", name="Koi's Pinball League")
    assert said.deferred is True and private(said)
    assert said.text == "League Koi's Pinball League is set up (America/New_York)."
    said = await run(bot, "season start", name="Spring 2026", start="2026-01-07")
    # R1.1: ten Wednesdays from 7 January.
    assert said.text == (
        "Season Spring 2026: Wednesdays. Nights 1: 07 Jan, 2: 14 Jan, 3: 21 Jan, 4: 28 Jan, "
        "5: 04 Feb, 6: 11 Feb, 7: 18 Feb, 8: 25 Feb, 9: 04 Mar, 10: 11 Mar."
    )
    # Starting the next season does not close a running one: /season close does (R13.6).
    said = await run(bot, "season start", name="Summer", start="3/4/2026")
    assert said.text.startswith("Spring 2026 is still running (weeks 1-10 to play).")
    await closing.close(bot.db, GUILD, confirm=True, now=at(date(2026, 1, 2)))
    # 4 March 2026 is a Wednesday: the first Thursday on or after it is 5 March.
    said = await run(
        bot, "season start", name="Summer", start="3/4/2026", weekday="thursday", nights=3
    )
    assert said.text == (
        "Season Summer: Thursdays. Nights 1: 05 Mar, 2: 12 Mar, 3: 19 Mar. "
        "New since Spring 2026: nobody. Not back: nobody."
    )
    said = await run(bot, "season setup", name="Another")
    assert said.text == "This server already has a league."


async def test_r1_3_setup_takes_the_bots_time_zone_unless_given(bot: FakeBot) -> None:
    """LEAGUE_TIME_ZONE is the default zone of a new league; a given one wins."""
    bot.settings = dataclasses.replace(bot.settings, time_zone="America/Chicago")
    said = await run(bot, "season setup", name="Koi's Pinball League")
    assert said.text == "League Koi's Pinball League is set up (America/Chicago)."
    other = FakeBot(bot.db, bot.settings.backup_dir.parent)  # a second server's league
    other.setups = {GUILD + 1: dataclasses.replace(bot.setups[GUILD], guild_id=GUILD + 1)}
    there = as_user(other, COMMISSIONER, MONDAY)
    there.guild_id = GUILD + 1
    said = await invoke(
        COMMANDS["season setup"], COG, there, name="West", time_zone=" America/Los_Angeles ",
    )  # fmt: skip
    assert said.text == "League West is set up (America/Los_Angeles)."


async def test_setting_changes_a_rule_setting(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "season setting", name="regular_nights", value="12")
    assert said.text == "regular_nights is now 12."
    # Twelve Wednesdays now: after 11 March come 18 and 25 March (R1.1).
    attendance = Attendance()
    late = await invoke(
        attendance.late, attendance, as_user(bot, PLAYERS[1], at(date(2026, 3, 12)))
    )
    assert late.text.startswith("Noted: P1 will be late on week 11 (Wednesday 18 March).")
    said = await run(bot, "season setting", name="dues_cents", value="700")
    assert said.text == "dues_cents is now 700."


async def test_time_changes_the_cutoff(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "season time", name="late_cutoff", value="14:30")
    assert said.text == "late_cutoff is now 14:30."
    said = await run(bot, "season time", name="grace_until", value="9:45")
    assert said.text == "grace_until is now 09:45."
    attendance = Attendance()
    late = await invoke(
        attendance.late, attendance, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "14:45"))
    )
    assert "after the 14:30 late-notice cutoff: your group will not wait past 09:45." in late.text


# --- players and machines -----------------------------------------------------------------


async def names_and_skills(bot: FakeBot) -> list[tuple[str, float | None]]:
    players, _ = await membership.roster(bot.db, GUILD)
    return [(p.name, p.skill) for p in players]


async def test_players_join_leave_and_are_rated(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "player add", member=ZED, skill=4.0)
    assert said.text == "Zed joined the league."
    said = await run(bot, "player remove", name="p6")
    assert said.text == "P6 was removed; their results stay in the history."
    said = await run(bot, "player add", member=PLAYERS[6], name="Six")
    assert said.text == "Six joined the league (welcome back: their history is kept)."
    said = await run(bot, "player skill", name="P2", value=3.5)
    assert said.text == "P2's skill is now 3.5."
    said = await run(bot, "player grant", name="P3", nights=2)
    assert said.text == "P3 has 2 extra pre-makeup night(s)."
    assert await names_and_skills(bot) == [
        ("P1", 10), ("P2", 3.5), ("P3", 8), ("P4", 7), ("P5", 6), ("Six", None), ("Zed", 4),
    ]  # fmt: skip
    standings = Standings()
    me = await invoke(standings.me, standings, as_user(bot, PLAYERS[3], MONDAY))
    assert "Pre-makeup nights used 0, left 5" in me.text  # R3.5: 3 + 2 granted
    again = await run(bot, "player add", member=ZED)
    assert again.text == "Zed is already a player."


async def test_machines_par_and_working(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "machine add", name="Funhouse", par="50M")
    assert said.text == "Funhouse added. Every player owes a pre-makeup score on it."
    said = await run(bot, "machine add", name="Pinbot")
    assert said.text == "Pinbot added. Every player owes a pre-makeup score on it."
    said = await run(bot, "machine par", machine="pinbot", value="1.5B")
    assert said.text == "Pinbot's par is 1,500,000,000."
    said = await run(bot, "machine par", machine="Funhouse", value=" Median ")
    assert said.text == (
        "Funhouse has no par yet. It will be the median of approved pre-makeup scores "
        "once there is one; until then a night that uses it can't be finalized."
    )
    said = await run(bot, "machine working", machine="Twilight Zone", working=False)
    assert said.text == "Twilight Zone is out of order."
    _, machines = await membership.roster(bot.db, GUILD)
    assert [(m.name, m.par, m.working) for m in machines] == [
        *((m, 1_000_000_000, m != "Twilight Zone") for m in MACHINES),
        ("Funhouse", None, True),
        ("Pinbot", 1_500_000_000, True),
    ]
    said = await run(bot, "machine working", machine="Twilight Zone", working=True)
    assert said.text == "Twilight Zone is working."


# --- the calendar and the night -----------------------------------------------------------


async def test_skip_moves_every_later_week(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "season skip", date="2026-01-14", reason="snow")
    # R1.2: week 2 moves to 21 January and every later week a week on.
    assert said.text == (
        "14 January is skipped. Nights now: 1: 07 Jan, 2: 21 Jan, 3: 28 Jan, 4: 04 Feb, "
        "5: 11 Feb, 6: 18 Feb, 7: 25 Feb, 8: 04 Mar, 9: 11 Mar, 10: 18 Mar."
    )
    assert announced(bot) == ["No league night on Wednesday 14 January: snow."]


async def test_lock_shows_an_absent_players_pre_makeups_and_orders_only_those_there(
    league: FakeBot,
) -> None:
    """R3.2, R3.4, R11.2: "the pre-makeup scores will be made available to
    players in the group", and the play order names only the players who are there."""
    bot = league
    await approved_pre_makeup(bot, 2, "Attack from Mars", 400_000_000)
    await approved_pre_makeup(bot, 2, "Twilight Zone", 250_000_000)
    await attendance.notify(bot.db, GUILD, PLAYERS[2].id, "absent", now=MONDAY)
    await picks.add_pick(bot.db, GUILD, PLAYERS[3].id, "Theatre of Magic", now=MONDAY)
    said = await run(bot, "night lock", when=at(FIRST_NIGHT, "19:15"))
    zero = "none, 0 points (the Zero Point Rule)"
    group_1 = (
        "**Group 1**: 1. Attack from Mars, 2. Medieval Madness, 3. Twilight Zone, "
        "4. The Addams Family, 5. Monster Bash\n"
        "  Game 1 play order: P3 → P1\n"
        "  P2 is absent; their pre-makeup scores play for them:\n"
        "  - Game 1 · Attack from Mars: 400,000,000\n"
        f"  - Game 2 · Medieval Madness: {zero}\n"
        "  - Game 3 · Twilight Zone: 250,000,000\n"
        f"  - Game 4 · The Addams Family: {zero}\n"
        f"  - Game 5 · Monster Bash: {zero}\n"
        "**Group 2**"
    )
    assert group_1 in said.text
    assert announced(bot) == [said.text]  # the post the group reads
    assert "Game 1 play order: P6 → P5 → P4" in said.text  # nobody absent in group 2


async def test_lock_sets_every_groups_games_and_announces_them(league: FakeBot) -> None:
    bot = league
    await picks.add_pick(bot.db, GUILD, PLAYERS[3].id, "Theatre of Magic", now=MONDAY)
    said = await run(bot, "night lock", when=at(FIRST_NIGHT, "19:15"))
    # Group 1: P3's veto applies (R4.4). Group 2 picked nothing: the first
    # machine in league order is vetoed and the bot says so (R4.5).
    expected = (
        "**Week 1: picks are locked.** Tonight's games:\n"
        "**Group 1**: 1. Attack from Mars, 2. Medieval Madness, 3. Twilight Zone, "
        "4. The Addams Family, 5. Monster Bash\n"
        "  Game 1 play order: P3 → P2 → P1\n"  # R11.2: the lowest rank starts
        "**Group 2**: 1. Medieval Madness, 2. Twilight Zone, 3. The Addams Family, "
        "4. Monster Bash, 5. Theatre of Magic\n"
        "  Game 1 play order: P6 → P5 → P4\n"
        "  (not enough picks: Attack from Mars applied in machine order)"
    )
    assert said.text == expected and private(said)
    assert announced(bot) == [expected]
    # The 19:15 job's post is claimed: the scheduler will not announce it again.
    record = await announcements.post_record(bot.db, GUILD, "lock:2026-01-07")
    assert record is not None and record.status == "claimed"
    said = await run(bot, "night lock", when=at(FIRST_NIGHT, "19:16"), week=1)
    # Locking twice: the same games, and no second announcement.
    assert said.text.startswith("Already locked; nothing changed.\n**Week 1: picks are locked.**")
    assert "**Group 1**: 1. Attack from Mars, 2. Medieval Madness" in said.text
    assert announced(bot) == [expected]


async def test_lock_of_a_big_league_is_announced_within_discord_limits(league: FakeBot) -> None:
    bot = league
    for n in range(1, 121):
        await membership.add_player(bot.db, GUILD, f"Newcomer {n:03}", discord_id=None, now=MONDAY)
    said = await run(bot, "night lock", when=at(FIRST_NIGHT, "19:15"))
    assert "**Group 42**" in said.text  # 126 players, 42 groups (R8.1)
    posts = announced(bot)
    assert all(len(p) <= 2000 for p in posts)
    assert "\n".join(posts) == said.text


async def test_games_overrides_a_groups_games(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    order = ["Theatre of Magic", "Monster Bash", "The Addams Family", "Twilight Zone",
             "Attack from Mars"]  # fmt: skip
    said = await run(bot, "night games", when=at(FIRST_NIGHT, "19:20"), group="1",
                     machines=" , ".join(order))  # fmt: skip
    assert said.text == "Group 1: " + ", ".join(f"{n}. {m}" for n, m in enumerate(order, 1))
    games = await scores.my_games(bot.db, GUILD, PLAYERS[1].id)
    assert [g.machine for g in games] == order


async def test_approve_all_approves_one_groups_pending_scores(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    for player in (1, 2, 3, 4):
        await scores.submit(bot.db, GUILD, PLAYERS[player].id, 1, 1000, now=TONIGHT)
    said = await run(bot, "night approve-all", when=TONIGHT, group="1")
    assert said.text == "Approved 3 score(s) of group 1."
    assert [(v.player.name, v.group_label) for v in await approvals.pending(bot.db, GUILD)] == [
        ("P4", "Group 2")
    ]


# --- score changes (R12) ------------------------------------------------------------------


async def test_changes_penalty_correction_and_replays(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    cases = [
        # R12.2: a penalty sets the score to 0, no new score needed.
        ("penalty", 1, None, "300,000,000 → 0"),
        ("correction", 2, "250M", "300,000,000 → 250,000,000"),
        # R12.1: the malfunction replay replaces the original, even lower.
        ("malfunction_replay", 3, "100M", "300,000,000 → 100,000,000"),
        # R12.3: slam-tilt and tilt-away replays keep the higher of the two.
        ("slam_tilt_replay", 4, "100M", "300,000,000 → 300,000,000"),
        ("tilt_replay", 5, "400M", "300,000,000 → 400,000,000"),
    ]
    for kind, game, score, change in cases:
        options = {"score": score} if score else {}
        said = await run(bot, "score change", when=TONIGHT, kind=kind, week=1, player="P1",
                         game=game, reason="seen by Koi", **options)  # fmt: skip
        assert said.text == f"P1, week 1 game {game}: {change} ({kind})."
        assert private(said)
    assert announced(bot) == []  # the night is not final: nothing to recompute


async def test_a_change_to_a_finalized_night_recomputes_and_announces(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK_1)
    # R12.2 on every game of P1: 0 is placed like any score (R5.5), so P1 is
    # last in each game, P2 first: 200 > 100 + 0, the 4th point (R5.2): 4-2-0.
    for game in range(1, 6):
        said = await run(bot, "score change", when=at(FIRST_NIGHT, "23:30"), kind="penalty",
                         week=1, player="P1", game=game, reason="slam tilt")  # fmt: skip
        assert said.text.endswith("(penalty). Week results recomputed.")
    *_, final, table = announced(bot)
    assert "\n1. P2: 20 pts · 20 MP · stays\n" in final
    assert "\n2. P3: 10 pts · 10 MP · stays\n" in final
    assert "\n3. P1: 0 pts · 0 MP · moves down\n" in final
    # The standings the recomputed night makes follow its results.
    assert table.startswith("Standings · Spring\n1. P2 · 20 pts · x1\n")
    assert "P1 · 0 pts" in table


async def test_a_recomputed_night_of_a_big_league_is_one_message_within_limits(
    league: FakeBot,
) -> None:
    bot = league
    for n in range(7, 31):  # 30 players: ten groups of 3 (R8.1)
        await membership.add_player(bot.db, GUILD, f"P{n}", discord_id=discord_id(n), now=MONDAY)
    labels = tuple(str(g) for g in range(1, 11))
    await play_week(bot, 1, {n: (100 - n) * 1_000_000 for n in range(1, 31)}, labels)
    said = await run(bot, "score change", when=at(FIRST_NIGHT, "23:30"), kind="correction",
                     week=1, player="P2", game=1, score="1", reason="typo")  # fmt: skip
    assert said.text.endswith("Week results recomputed.")
    posts = bot.channels[ANNOUNCEMENTS].sent  # the fakes check the stand-in's limits
    *_, results = [p for p in posts if "Week 1 results" in shown(p)]  # recomputed: posted again
    assert "Game 1 · Medieval Madness\n  P1 4, P3 2, P2 0\n" in shown(results)
    assert [f.name for f in results.embeds[0].fields][-2:] == ["Group 10", "Next week"]


async def test_tie_order_lets_the_night_be_finalized(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "score change", when=TONIGHT, kind="correction", week=1, player="P2", game=1,
              score="300M", reason="misread")  # fmt: skip
    before = await snapshot(bot)
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text.startswith("Week 1 cannot be finalized.")  # R5.4: equal scores
    assert private(said) and announced(bot) == []
    assert await snapshot(bot) == before
    said = await run(bot, "score tie", when=TONIGHT, week=1, game=1, players="P2, P1")
    assert said.text == "Week 1 game 1: P2 > P1."
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final."
    # Game 1: P2 first, P1 second by the recorded order; 300 > 300 + 100 is
    # false, so third gets the close point: 3-2-1 (R5.2).
    assert "\nGame 1 · Medieval Madness\n  P2 3, P1 2, P3 1\n" in announced(bot)[0]


async def test_mark_records_late_or_absent(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "night mark", player="p3", status="absent")
    assert said.text.split("\n")[:2] == [
        "Noted: P3 will be absent on week 1 (Wednesday 07 January).",
        "Pre-makeup nights left before this one: 3 (this night uses none).",
    ]
    said = await run(bot, "night mark", when=at(FIRST_NIGHT, "19:40"), player="P2", status="late",
                     date="1/7/2026")  # fmt: skip
    assert said.text.split("\n")[0] == "Noted: P2 will be late on week 1 (Wednesday 07 January)."
    assert "will not wait past 19:30" in said.text  # R2.2: after the cutoff


async def test_finalize_posts_results_and_standings(league: FakeBot) -> None:
    bot = league
    for n in range(1, 7):
        said = await run(bot, "money dues", players=f"P{n}", week=1)
    # R10.1: six players' $6.00 dues; half to the night's pot.
    assert said.text == "Week 1: dues $36.00, pot $18.00.\nPaid: P6 $6.00."
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    assert said.text == "Week 1 is final." and private(said)
    results, table = announced(bot)
    # no picks: Attack from Mars is vetoed in both groups (R4.5)
    games = [f"Game {n} · {m}" for n, m in enumerate(MACHINES[1:], start=1)]

    def game_lines(finish: str) -> list[str]:
        """Each game on a line, its finish indented under it."""
        return [line for game in games for line in (game, f"  {finish}")]

    assert results.split("\n") == [
        "Week 1 results · Wednesday 07 January",
        "Payout from the $18.00 pot:",
        "P1 $13.50 (TLP 15, TNS 1,500,000),",
        "P4 $4.50 (TLP 15, TNS 1,400,000)",
        "Group 1",
        *game_lines("P1 3, P2 2, P3 1"),
        "1. P1: 15 pts · 15 MP · stays",
        "2. P2: 10 pts · 10 MP · stays",
        "3. P3: 5 pts · 5 MP · moves down",
        "Group 2",
        *game_lines("P4 3, P5 2, P6 1"),
        "1. P4: 15 pts · 15 MP · moves up",
        "2. P5: 10 pts · 10 MP · stays",
        "3. P6: 5 pts · 5 MP · stays",
        "Next week",
        "Group 1: P1, P2, P4",
        "Group 2: P3, P5, P6",
        "pts league points · MP match points · bonus base × multiplier · "
        "TLP match points + bonus, before the multiplier · TNS total normalized score",
    ]
    # R11.1: P1 and P4 15 points, P1's TNS higher; P2 and P5 tie on TNS too,
    # so skill (9 over 6) decides; P3 over P6 likewise.
    assert [line.split(". ")[1].split(" · ")[0] for line in table.split("\n")[1:-1]] == [
        "P1", "P4", "P2", "P5", "P3", "P6"
    ]  # fmt: skip
    assert table.startswith("Standings · Spring\n")


async def test_dues_fund_and_playoffs(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "money dues", players="P1", week=1)
    assert said.text == "Week 1: dues $6.00, pot $3.00.\nPaid: P1 $6.00."
    said = await run(bot, "money dues", players="P2", week=1, amount="$7.50")
    assert said.text == "Week 1: dues $13.50, pot $6.75.\nPaid: P2 $7.50."  # R10.1: half to the pot
    said = await run(bot, "money dues", players="P1", week=1)
    assert said.text == "P1's dues for week 1 are already recorded; nothing was recorded."
    said = await run(bot, "money fund", amount="25", note="sponsor")
    assert said.text == "The prize fund is now $31.75."  # $6.75 of dues + $25.00
    said = await run(bot, "season playoffs")
    # R13.1: 6 players // 3 = 2 qualifiers; the next are alternates (3 shown).
    assert said.text == "**Playoffs**\nLeague: 1. P1, 2. P2\n  Alternates, in order: P3, P4, P5"
    said = await run(bot, "season playoffs", unavailable="p2")
    assert said.text == "**Playoffs**\nLeague: 1. P1, 2. P3\n  Alternates, in order: P4, P5, P6"


async def test_backup_writes_a_copy_under_the_backup_folder(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "admin backup", when=at(FIRST_NIGHT, "23:30"))
    # 23:30 in New York on 7 January is 04:30 UTC on the 8th.
    assert said.text == "Backed up to league-20260108-043000.sqlite3."
    copy = bot.settings.backup_dir / "league-20260108-043000.sqlite3"
    assert copy.is_file()
    async with aiosqlite.connect(copy) as conn:
        rows = await conn.execute_fetchall("SELECT name FROM players ORDER BY id")
    assert [r[0] for r in rows] == [f"P{n}" for n in range(1, 7)]


async def test_sync(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "admin sync")
    assert said.text == "Synced 30 commands."
    assert bot.synced == 1


# --- refused for everyone but the commissioner ---------------------------------------------

VALID_OPTIONS: dict[str, dict[str, Any]] = {
    "season setup": {"name": "Another League"},
    "season start": {"name": "Summer", "start": "2026-06-03"},
    "season setting": {"name": "dues_cents", "value": "700"},
    "season time": {"name": "late_cutoff", "value": "14:30"},
    "player add": {"member": ZED, "skill": 4.0},
    "player remove": {"name": "P6"},
    "player skill": {"name": "P2", "value": 3.0},
    "player grant": {"name": "P3", "nights": 2},
    "machine add": {"name": "Funhouse", "par": "50M"},
    "machine par": {"machine": "Monster Bash", "value": "median"},
    "machine working": {"machine": "Monster Bash", "working": False},
    "season skip": {"date": "2026-01-14", "reason": "snow"},
    "night lock": {"week": 2},
    "night waiting": {},
    "night games": {"group": "1", "machines": ", ".join(MACHINES[:5])},
    "night approve-all": {"group": "1"},
    "score change": {"kind": "penalty", "week": 1, "player": "P1", "game": 1, "reason": "slam"},
    "score tie": {"week": 1, "game": 1, "players": "P2, P1"},
    "score audit": {},
    "night mark": {"player": "P3", "status": "absent"},
    "night finalize": {},
    "money dues": {"players": "P1", "week": 1},
    "money fund": {"amount": "25"},
    "money prizes": {},
    "money summary": {},
    "season playoffs": {},
    "admin backup": {},
    "admin export": {},
    "player ifpa": {"name": "P1", "number": "12345"},
    "player import": {"file": None},  # refused before the file is looked at
    "admin sync": {},
    "admin resend": {"week": 1},
    "admin status": {},
}


def test_every_league_command_is_covered_here() -> None:
    assert set(COMMANDS) == set(VALID_OPTIONS)
    assert COG.__cog_app_commands_group__ is not None
    assert COG.__cog_app_commands_group__.name == "league"
    groups = COG.__cog_app_commands_group__.commands
    assert all(isinstance(g, app_commands.Group) for g in groups)  # command → group → leaf
    leaves = {f"{g.name} {c.name}" for g in groups for c in g.commands}  # type: ignore[attr-defined]
    assert leaves == set(VALID_OPTIONS)


@pytest.mark.parametrize(
    "member",
    [PLAYERS[1], FakeMember(700000000000000009, "Helper", [FakeRole(123456789012345678)])],
    ids=["player", "other-role"],
)
async def test_every_league_command_is_refused_for_others(
    league: FakeBot, member: FakeMember
) -> None:
    bot = league
    await lock(bot)
    for player in (1, 2, 3):
        await scores.submit(bot.db, GUILD, PLAYERS[player].id, 1, 1000, now=TONIGHT)
    before = await snapshot(bot)
    posts = len(bot.channels[APPROVALS].sent)  # the set-up's approval posts
    for name in COMMANDS:
        said = await run(bot, name, user=member, when=TONIGHT, **VALID_OPTIONS[name])
        assert said.text == "Only the commissioner can do that.", name
        assert [r.ephemeral for r in said.replies] == [True], name
    assert await snapshot(bot) == before
    assert announced(bot) == [] and len(bot.channels[APPROVALS].sent) == posts
    assert not bot.settings.backup_dir.exists()
    assert bot.synced == 0


async def test_discord_py_runs_the_role_check_before_every_league_command(
    league: FakeBot,
) -> None:
    """The check is the cog's interaction_check, which discord.py calls for
    each command of a GroupCog (Command._check_can_run)."""
    bot = league
    for name, command in COMMANDS.items():
        assert command.binding is COG, name
        with pytest.raises(NotCommissioner, match=r"^Only the commissioner can do that\.$"):
            await command._check_can_run(as_user(bot, PLAYERS[1], TONIGHT))  # type: ignore[arg-type]
        assert await command._check_can_run(as_user(bot, COMMISSIONER, TONIGHT))  # type: ignore[arg-type]


# --- bad input: a clear private message and no change ---------------------------------------

NOT_A_DATE = "is not a date; type it as 2026-03-11 or 3/11/2026."
NOT_A_TIME = "is not a time; type it as 19:15."
NOT_MONEY = "is not an amount; type it as 6.00."
SCORES = "Type a score like 1234567, 1,234,567, 850M, 1.2B or 75k."


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("season start", {"name": "S", "start": "2026-13-01"}, "'2026-13-01' is not a real date."),
        ("season start", {"name": "S", "start": "next week"}, f"'next week' {NOT_A_DATE}"),
        ("season start", {"name": "S", "start": "2026-06-03", "weekday": "Funday"},
         "'Funday' is not a weekday; use a name like 'Wednesday'."),
        ("season skip", {"date": "1/32/2026"}, "'1/32/2026' is not a real date."),
        ("season skip", {"date": "2026-01-08"},
         "Thursday 08 January 2026 is not a league night of this season."),
        ("night mark", {"player": "P3", "status": "absent", "date": "tomorrow"},
         f"'tomorrow' {NOT_A_DATE}"),
        ("season time", {"name": "play_time", "value": "25:00"}, f"'25:00' {NOT_A_TIME}"),
        ("season time", {"name": "play_time", "value": "7pm"}, f"'7pm' {NOT_A_TIME}"),
        ("season time", {"name": "play_time", "value": "19:5"}, f"'19:5' {NOT_A_TIME}"),
        ("money dues", {"players": "P1", "week": 1, "amount": "6.5"}, f"'6.5' {NOT_MONEY}"),
        ("money dues", {"players": "P1", "week": 1, "amount": "-6"}, f"'-6' {NOT_MONEY}"),
        ("money dues", {"players": "P1", "week": 1, "amount": "six"}, f"'six' {NOT_MONEY}"),
        ("money dues", {"players": "P1", "week": 1, "amount": "0"},
         "Dues are from $0.01 to $1,000.00."),
        ("money dues", {"players": "Nobody", "week": 1},
         "There is no player called 'Nobody' in this league."),
        ("money dues", {"players": "P1", "week": 11},
         "Week 11 is not a night of this season (1 to 10)."),
        ("money fund", {"amount": "1,000"}, f"'1,000' {NOT_MONEY}"),
        ("money fund", {"amount": "0.00"}, "Add from $0.01 to $100,000.00."),
        ("machine add", {"name": "Funhouse", "par": "abc"}, f"'abc' is not a score. {SCORES}"),
        ("machine add", {"name": "Funhouse", "par": "-5"}, "A score cannot be negative."),
        ("machine add", {"name": "Monster Bash"},
         "There is already a machine called Monster Bash."),
        ("machine par", {"machine": "Monster Bash", "value": "1e400"},
         f"'1e400' is not a score. {SCORES}"),
        ("machine par", {"machine": "Monster Bash", "value": "0"},
         "A par is a score from 1 to 10,000,000,000,000."),
        ("machine par", {"machine": "Pinbot", "value": "1M"},
         f"There is no machine called 'Pinbot'. Machines: {', '.join(MACHINES)}."),
        ("score change", {"kind": "correction", "week": 1, "player": "P1", "game": 1, "reason": "r",
                    "score": "12,34"}, f"'12,34' is not a score. {SCORES}"),
        ("score change", {"kind": "correction", "week": 1, "player": "P1", "game": 1,
                           "reason": "r"}, "Give the new score."),
        ("score change", {"kind": "penalty", "week": 1, "player": "P1", "game": 1, "reason": "  "},
         "Give a reason; every score change is kept with its reason."),
        ("score change", {"kind": "penalty", "week": 2, "player": "P1", "game": 1, "reason": "r"},
         "Week 2 has not been played."),
        ("season setting", {"name": "dues_cents", "value": "-1"},
         "dues_cents must be a whole number from 0 to 100000."),
        ("player remove", {"name": "Nobody"}, "There is no player called 'Nobody' in this league."),
        ("player add", {"member": ZED, "name": "p1"},
         "There is already a player called P1; pick another name."),
        ("player skill", {"name": "P1", "value": 11.0},
         "A skill rating is from 1 (novice) to 10 (expert)."),
        ("night games", {"group": "1", "machines": "Monster Bash, Twilight Zone"},
         "Give exactly 5 games."),
        ("night games", {"group": "7", "machines": ", ".join(MACHINES[:5])},
         "There is no group 7 in week 1."),
        ("night approve-all", {"group": "X"},
         "Name the group as 1, 2, … or A1, B2 with divisions."),
        ("score tie", {"week": 1, "game": 1, "players": "P1"},
         "Name at least two tied players, highest placed first."),
        ("score tie", {"week": 1, "game": 1, "players": "P1, P4"},
         "The tied players must all be in the same group."),
        ("night finalize", {}, "Week 1 cannot be finalized. Scores waiting for approval: "
                         "P1 on game 1 (Group 1)."),
    ],
)  # fmt: skip
async def test_bad_input_gets_a_clear_private_message_and_changes_nothing(
    league: FakeBot, name: str, options: dict[str, Any], message: str
) -> None:
    bot = league
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 1000, now=TONIGHT)
    before = await snapshot(bot)
    posts = len(bot.channels[APPROVALS].sent)  # the set-up's approval posts
    said = await run(bot, name, when=TONIGHT, **options)
    assert said.text == message
    assert [r.ephemeral for r in said.replies] == [True]
    assert "Traceback" not in said.text
    assert await snapshot(bot) == before
    assert announced(bot) == [] and len(bot.channels[APPROVALS].sent) == posts


async def test_setup_with_a_bad_time_zone(bot: FakeBot) -> None:
    said = await run(bot, "season setup", name="League", time_zone="Mars/Olympus")
    assert said.text == "'Mars/Olympus' is not a time zone; use a name like 'America/New_York'."
    assert private(said)
    said = await run(bot, "season start", name="Spring", start="2026-01-07")
    assert said.text == (
        "This server has no league yet. The commissioner can start one with /league season setup."
    )


async def test_a_week_is_played_end_to_end_through_the_commands(league: FakeBot) -> None:
    """Lock, scores approved, finalize, then week 2's lock: all by /league."""
    bot = league
    await run(bot, "night lock", when=at(FIRST_NIGHT, "19:15"))
    await submit_all(bot, 1, WEEK_1, groups=())
    for typed, group in ((" 1", "1"), ("2 ", "2")):  # as typed on a phone
        said = await run(bot, "night approve-all", when=TONIGHT, group=typed)
        assert said.text == f"Approved 15 score(s) of group {group}."
    await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    said = await run(bot, "night lock", when=at(night_of(2), "19:15"))
    assert said.text.startswith("**Week 2: picks are locked.**")


async def test_finalizing_twice_changes_nothing_and_announces_once(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:00"))
    first = announced(bot)
    before = await snapshot(bot)
    said = await run(bot, "night finalize", when=at(FIRST_NIGHT, "23:05"), week=1)
    assert said.text == "Week 1 was already final; nothing changed." and private(said)
    assert announced(bot) == first
    assert await snapshot(bot) == before
