"""Who the bot can DM as the commissioner without the privileged members intent:
every member seen passing the commissioner role check is recorded, and
forgotten when a later interaction shows they lost the role."""

from __future__ import annotations

from datetime import datetime

from bot.database import Database
from bot.repositories import commissioners
from bot.services.context import stamp


async def seen(
    db: Database,
    guild_id: int,
    user_id: int,
    holds_role: bool,
    *,
    now: datetime,
    name: str | None = None,
) -> None:
    """A member's interaction showed whether they hold the role: record or forget
    them (a read first, so the usual case, nothing changed, writes nothing).
    A commissioner's display name `name` is kept, so exports can say who
    approved or corrected a score even if that member is not a player; it
    stays after they lose the role, as the history does."""
    name = " ".join(name.split())[:100] if name else None
    async with db.read() as conn:
        same_role = await commissioners.known(conn, guild_id, user_id) == holds_role
        same_name = not (holds_role and name) or (
            await commissioners.name_of(conn, guild_id, user_id) == name
        )
        if same_role and same_name:
            return
    async with db.transaction() as conn:
        if holds_role:
            await commissioners.record(conn, guild_id, user_id, stamp(now))
            if name:
                await commissioners.record_name(conn, guild_id, user_id, name, stamp(now))
        else:
            await commissioners.forget(conn, guild_id, user_id)


async def recorded(db: Database, guild_id: int) -> list[int]:
    async with db.read() as conn:
        return await commissioners.recorded(conn, guild_id)
