"""Playing league nights through the real services, for the cog tests.

The league of `tests/cogs/conftest.py`: P1 … P6 with skill 10 … 5, so week 1
is Group 1 = P1, P2, P3 and Group 2 = P4, P5, P6 (R8.2); six working machines
in this order: Attack from Mars, Medieval Madness, Twilight Zone, The Addams
Family, Monster Bash, Theatre of Magic (P = 6 > 5: one veto per group, R4.2).
"""

from __future__ import annotations

from datetime import date, timedelta

from bot.services import approvals, finalize, membership, picks, premakeups, scores, setup
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, at
from tests.cogs.fakes import GUILD, FakeBot
from tests.moments import SETTING_AT

MACHINES = [
    "Attack from Mars", "Medieval Madness", "Twilight Zone", "The Addams Family",
    "Monster Bash", "Theatre of Magic",
]  # fmt: skip


def discord_id(player: int) -> int:
    """P<player>'s Discord id: the conftest's members, and more players past P7."""
    return PLAYERS[player].id if player in PLAYERS else 800000000000000000 + player


def night_of(week: int) -> date:
    """The date of week `week` when no date was skipped (R1.1)."""
    return FIRST_NIGHT + timedelta(weeks=week - 1)


async def snapshot(bot: FakeBot) -> list[str]:
    """Every row of the database, to show that a refusal changed nothing. What the
    set-up owed is delivered first (a command delivers what is due when it ends).
    Who was seen passing the role check (the commissioners the bot can DM, and
    the names they act under) is not league data: any command records it,
    refused or not."""
    await bot.outbox.flush()
    async with bot.db.read() as conn:
        seen = ('INSERT INTO "commissioners"', 'INSERT INTO "member_names"')
        return [line async for line in conn.iterdump() if not line.startswith(seen)]


async def approved_pre_makeup(bot: FakeBot, player: int, machine: str, score: int) -> None:
    """Player P<player>'s pre-makeup score, played with another player and approved (R3.1)."""
    witness = PLAYERS[2 if player == 1 else 1].id
    when = at(FIRST_NIGHT - timedelta(days=3))
    done = await premakeups.submit(
        bot.db, GUILD, PLAYERS[player].id, machine, score, [witness], now=when
    )
    await approvals.decide_pre_makeup(
        bot.db, GUILD, done.pre_makeup.id, True, by=COMMISSIONER.id, now=when
    )


async def lock(bot: FakeBot, week: int = 1) -> None:
    await picks.lock_picks(bot.db, GUILD, now=at(night_of(week), "19:15"))


async def submit_all(
    bot: FakeBot, week: int, by_player: dict[int, int], groups: tuple[str, ...] = ("1", "2")
) -> None:
    """P<n> scores `by_player[n]` on all five games of the week; `groups` are approved."""
    day = night_of(week)
    for player, score in by_player.items():
        for game in range(1, 6):
            await scores.submit(bot.db, GUILD, discord_id(player), game, score,
                                now=at(day, "20:00"))  # fmt: skip
    for group in groups:
        await approvals.approve_all(bot.db, GUILD, group, by=COMMISSIONER.id, now=at(day, "22:00"))


async def play_week(
    bot: FakeBot, week: int, by_player: dict[int, int], groups: tuple[str, ...] = ("1", "2")
) -> finalize.NightSummary:
    """Lock, submit and approve every score of `by_player`, then finalize."""
    await lock(bot, week)
    await submit_all(bot, week, by_player, groups)
    return await finalize.finalize(
        bot.db, GUILD, by=COMMISSIONER.id, now=at(night_of(week), "23:00")
    )


NINE = {n: (1000 - 100 * n) * 1_000_000 for n in range(1, 10)}  # every game: P1 > P2 > … > P9


async def divisions_from_week_2(bot: FakeBot, *, regular_nights: int | None = None) -> None:
    """P7, P8 and P9 join (skill 4, 3, 2), divisions start at week 2 (R9.1, a
    setting) and week 1 is played in three groups, P1 P2 P3 | P4 P5 P6 | P7 P8
    P9, each game won by the lower number (`NINE`). Week 2 is then played in
    groups A1, A2, B1, B2."""
    joined = at(FIRST_NIGHT - timedelta(days=2))
    for n in (7, 8, 9):
        await membership.add_player(bot.db, GUILD, f"P{n}", discord_id=discord_id(n),
                                    skill=11.0 - n, now=joined)  # fmt: skip
    await setup.change_setting(bot.db, GUILD, "division_week", 2, now=SETTING_AT)
    if regular_nights is not None:
        await setup.change_setting(bot.db, GUILD, "regular_nights", regular_nights, now=SETTING_AT)
    await play_week(bot, 1, NINE, groups=("1", "2", "3"))
