"""Pre-makeup scores (R3.1) and par from them (R6.2)."""

from __future__ import annotations

from datetime import date, datetime

import aiosqlite

from bot.database import Database
from bot.models import Machine, Player
from bot.repositories import leagues, people
from bot.services.card_posts import owe_day_card
from bot.services.context import (
    SeasonContext,
    machine_named,
    player_of,
    season_of,
    stamp,
    valid_score,
)
from bot.services.errors import BadInput, Conflict, NotFound, WrongState
from bot.services.outcomes.scores import PreMakeupView

PreMakeupSubmitted = PreMakeupView  # what `submit` returns


async def submit(
    db: Database,
    guild_id: int,
    discord_id: int,
    machine: str,
    score: int,
    witnesses: list[int],
    *,
    now: datetime,
) -> PreMakeupSubmitted:
    """R3.1: one official pre-makeup score per machine, played in a group of
    two or more league players: `witnesses` are the other players' Discord ids."""
    valid_score(score)
    async with db.transaction() as conn:
        ctx = await season_of(conn, guild_id)
        player = await player_of(conn, ctx.league, discord_id)
        found = await machine_named(conn, ctx.league, machine)
        await _check_deadline(conn, ctx, player, found, now)
        present = []
        for witness in dict.fromkeys(witnesses):
            other = await people.player_by_discord(conn, ctx.league.id, witness)
            if other is None or other.removed:
                raise NotFound("Everyone named as present must be a league player.")
            if other.id != player.id:
                present.append(other)
        if not present:
            raise BadInput(
                "A pre-makeup score is played with at least one other league player "
                "present; name who was there."
            )
        existing = await people.live_pre_makeup(conn, ctx.season.id, player.id, found.id)
        if existing is not None:
            state = "is waiting for approval" if existing.status == "pending" else "is recorded"
            raise Conflict(
                f"Your pre-makeup score on {found.name} ({existing.score:,}) {state}; "
                "there is one per machine."
            )
        new_id = await people.add_pre_makeup(
            conn, ctx.season.id, player.id, found.id, score, discord_id,
            [w.id for w in present], stamp(now),
        )  # fmt: skip
        # Owed with the score: a pending pre-makeup always has its card (the
        # player's card of the day).
        day = ctx.local(now).date().isoformat()
        await owe_day_card(conn, guild_id, ctx.season.id, player.id, day, new_id, now=now)
        record = await people.pre_makeup_by_id(conn, new_id)
        assert record is not None
        return PreMakeupView(record, player, found, present)


def may_still_play(
    ctx: SeasonContext, week_1: date, day: date, player: Player, machine: Machine
) -> bool:
    """R3.1: whether `player` may still play a pre-makeup on `machine` on `day`: in
    week 1 or before, or later for a machine added or a player who joined after week 1."""
    if day <= week_1:
        return True

    def local_day(stamp_text: str) -> date:
        return datetime.fromisoformat(stamp_text).astimezone(ctx.zone).date()

    return local_day(machine.added_at) > week_1 or bool(
        player.joined_at and local_day(player.joined_at) > week_1
    )


async def _check_deadline(
    conn: aiosqlite.Connection, ctx: SeasonContext, player: Player, machine: Machine, now: datetime
) -> None:
    """R3.1: pre-makeup scores are played in week 1 or before; a machine added,
    or a player who joined, after week 1 owes them as soon as possible."""
    first = await leagues.night_by_week(conn, ctx.season.id, 1)
    if first is None or may_still_play(ctx, first.date, ctx.local(now).date(), player, machine):
        return
    raise WrongState(
        f"Pre-makeup scores are played in week 1 or before; week 1 was "
        f"{first.date:%d %B}. Ask the commissioner."
    )


async def owed(db: Database, guild_id: int) -> dict[str, list[str]]:
    """R3.1: for every player, the working machines with no pre-makeup score yet
    (a machine added mid-season is owed by everyone)."""
    async with db.read() as conn:
        ctx = await season_of(conn, guild_id)
        machines = [m for m in await people.machines(conn, ctx.league.id) if m.working]
        done = {
            (p.player_id, p.machine_id)
            for p in await people.approved_pre_makeups(conn, ctx.season.id)
        }
        return {
            player.name: [m.name for m in machines if (player.id, m.id) not in done]
            for player in await people.players(conn, ctx.league.id)
        }
