"""Small helpers shared by the repositories."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, time
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")


async def one(
    conn: aiosqlite.Connection, sql: str, params: Iterable[Any], make: Callable[[Any], T]
) -> T | None:
    async with conn.execute(sql, tuple(params)) as cursor:
        row = await cursor.fetchone()
    return make(row) if row is not None else None


async def many(
    conn: aiosqlite.Connection, sql: str, params: Iterable[Any], make: Callable[[Any], T]
) -> list[T]:
    async with conn.execute(sql, tuple(params)) as cursor:
        rows = await cursor.fetchall()
    return [make(row) for row in rows]


async def scalar(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
    async with conn.execute(sql, tuple(params)) as cursor:
        row = await cursor.fetchone()
    return row[0] if row is not None else None


async def insert(conn: aiosqlite.Connection, sql: str, params: Iterable[Any]) -> int:
    async with conn.execute(sql, tuple(params)) as cursor:
        return int(cursor.lastrowid or 0)


async def run(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> int:
    async with conn.execute(sql, tuple(params)) as cursor:
        return cursor.rowcount


async def run_many(conn: aiosqlite.Connection, sql: str, rows: Iterable[Iterable[Any]]) -> None:
    """One statement for many rows: one trip to SQLite's thread, not one per row."""
    batch = [tuple(row) for row in rows]
    if batch:
        await conn.executemany(sql, batch)


def to_date(text: str) -> date:
    return date.fromisoformat(text)


def to_time(text: str) -> time:
    return time.fromisoformat(text)
