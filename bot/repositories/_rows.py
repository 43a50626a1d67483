"""Small helpers shared by the repositories."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date, time
from fractions import Fraction
from typing import Any, TypeVar

import aiosqlite

T = TypeVar("T")


# Each helper is one trip to SQLite's thread (execute and fetch together): under
# load every trip waits its turn on the event loop, so trips are what cost.


async def one(
    conn: aiosqlite.Connection, sql: str, params: Iterable[Any], make: Callable[[Any], T]
) -> T | None:
    rows = list(await conn.execute_fetchall(sql, tuple(params)))
    return make(rows[0]) if rows else None


async def many(
    conn: aiosqlite.Connection, sql: str, params: Iterable[Any], make: Callable[[Any], T]
) -> list[T]:
    return [make(row) for row in await conn.execute_fetchall(sql, tuple(params))]


async def scalar(conn: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> Any:
    rows = list(await conn.execute_fetchall(sql, tuple(params)))
    return rows[0][0] if rows else None


async def insert(conn: aiosqlite.Connection, sql: str, params: Iterable[Any]) -> int:
    row = await conn.execute_insert(sql, tuple(params))
    return int(row[0]) if row is not None and row[0] is not None else 0


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


def fraction_text(value: Fraction) -> str:
    """An exact normalized score as stored (R6.1): "numerator/denominator"."""
    return str(Fraction(value))


def fraction_of(text: str) -> Fraction:
    """A value stored by `fraction_text`; anything else is a corrupt row."""
    numerator, _, denominator = text.partition("/")
    try:
        return Fraction(int(numerator), int(denominator) if denominator else 1)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{text!r} is not a stored exact normalized score") from None
