"""The roster import: a CSV of players added at once.

Columns (a header row, any order, any case): `name` (required), `discord`
(a user id or a <@id> mention; empty: a player without Discord, whose scores
the commissioner enters), `skill` (1-10, R8.2; empty: none) and `ifpa`
(optional). The other columns a players.csv export has are ignored, so an
export imports as it is (its rows with status "removed" are left out and
named); any other column is refused, as a typo would be.

Every row is checked before anything is written, against the file and the
roster; one bad row refuses the whole file and nothing changes. Good files
add every player in one transaction, then recut the upcoming night (R8.6).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from datetime import datetime

import aiosqlite

from bot.database import Database
from bot.models import League
from bot.repositories import people
from bot.services.context import brief, check_player_name, league_of
from bot.services.errors import BadInput, LeagueError
from bot.services.membership import join, parse_ifpa, recut_upcoming
from bot.services.outcomes.exports import RosterImported
from bot.text import formula_like

MAX_BYTES = 100_000  # a league of hundreds of players fits in a few kilobytes
MAX_ROWS = 500
SHOWN_PROBLEMS = 10
COLUMNS = ("name", "discord", "skill", "ifpa")
IGNORED = ("status", "joined", "removed")  # written by the players export
MENTION = re.compile(r"<@!?([0-9]{15,20})>|([0-9]{15,20})")
# A long id a spreadsheet showed as a number: 1.57738E+18, 1,577,380,000,000,000,000.
NUMBER_SHOWN = re.compile(r"[0-9][.,][0-9]+[eE]\+?[0-9]+|[0-9]{1,3}(,[0-9]{3}){4,}")


@dataclass(frozen=True)
class RosterRow:
    line: int  # the row number a spreadsheet shows: the header is row 1
    name: str
    discord_id: int | None
    skill: float | None
    ifpa_number: int | None


class BadRoster(BadInput):
    """The file is refused; the message names each bad row."""


def read_roster(data: bytes) -> tuple[list[RosterRow], list[str]]:
    """The file's rows, each checked on its own and against the others, and the
    names of the rows an export marked removed (left out); a `BadRoster`
    naming every bad row (up to SHOWN_PROBLEMS) otherwise."""
    if len(data) > MAX_BYTES:
        raise BadRoster(
            f"The file is {len(data):,} bytes; a roster file is at most {MAX_BYTES:,} bytes."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise BadRoster(
            "The file is not UTF-8 text. Save it as CSV UTF-8 (comma delimited)."
        ) from None
    try:
        lines = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    except csv.Error as error:
        raise BadRoster(f"The file is not a CSV file ({error}).") from None
    lines = [line for line in lines if any(cell.strip() for cell in line)] if lines else []
    if not lines:
        raise BadRoster("The file is empty. The first row names the columns: name,discord,skill.")
    header = [cell.strip().casefold() for cell in lines[0]]
    unknown = [h for h in header if h not in COLUMNS + IGNORED]
    if "name" not in header or unknown:
        shown = f" Unknown column: {', '.join(brief(u, 20) for u in unknown)}." if unknown else ""
        raise BadRoster(
            f"The first row names the columns: name, and optionally discord, skill, ifpa.{shown}"
        )
    if len(set(header)) < len(header):
        raise BadRoster("A column is named twice in the first row.")
    if len(lines) - 1 > MAX_ROWS:
        raise BadRoster(f"The file has {len(lines) - 1:,} rows; import at most {MAX_ROWS}.")
    if len(lines) == 1:
        raise BadRoster("The file has no players, only the row of column names.")
    rows, problems, removed = [], [], []
    for number, line in enumerate(lines[1:], start=2):
        cells = dict(zip(header, (c.strip() for c in line), strict=False))
        if len(line) > len(header):
            problems.append(f"row {number}: more cells than columns")
            continue
        if cells.get("status", "").casefold() == "removed":
            removed.append(cells.get("name", "") or f"row {number}")
            continue
        try:
            rows.append(_row(number, cells))
        except LeagueError as error:
            problems.append(f"row {number}: {error}")
    problems += _repeats(rows)
    if problems:
        raise BadRoster(_refusal(sorted(problems, key=_row_number)))
    if not rows:
        raise BadRoster("Every row of the file is marked removed; nothing to import.")
    return rows, removed


def _row(number: int, cells: dict[str, str]) -> RosterRow:
    name = check_player_name(_unescaped(cells.get("name", "")))
    discord_id = None
    if cells.get("discord"):
        found = MENTION.fullmatch(cells["discord"])
        if found is None and NUMBER_SHOWN.fullmatch(cells["discord"]):
            raise BadInput(
                f"discord {brief(cells['discord'], 25)} was turned into a number by a "
                "spreadsheet; copy the <@id> from the export again"
            )
        if found is None:
            raise BadInput(f"discord {brief(cells['discord'], 25)} is not a user id or <@id>")
        discord_id = int(found.group(1) or found.group(2))
    skill = None
    if cells.get("skill"):
        try:
            skill = float(cells["skill"].replace(",", "."))
        except ValueError:
            skill = None
        if skill is None or not 1 <= skill <= 10:
            raise BadInput(f"skill {brief(cells['skill'], 10)} is not 1–10")
    ifpa = parse_ifpa(cells["ifpa"]) if cells.get("ifpa") else None
    return RosterRow(number, name, discord_id, skill, ifpa)


def _unescaped(cell: str) -> str:
    """A cell as typed: the `'` an export puts before a formula-like text
    (`bot.text.spreadsheet_text`) taken off, so the name is checked as it is."""
    return cell[1:] if cell.startswith("'") and formula_like(cell[1:]) else cell


def _repeats(rows: list[RosterRow]) -> list[str]:
    """The rows whose name, Discord member or IFPA number an earlier row has."""
    problems = []
    names: dict[str, int] = {}
    members: dict[int, int] = {}
    ifpa: dict[int, int] = {}
    for row in rows:
        if (first := names.setdefault(row.name.casefold(), row.line)) != row.line:
            problems.append(f"row {row.line}: {row.name} is also on row {first}")
        first = members.setdefault(row.discord_id, row.line) if row.discord_id else row.line
        if first != row.line:
            problems.append(f"row {row.line}: the same Discord member as row {first}")
        first = ifpa.setdefault(row.ifpa_number, row.line) if row.ifpa_number else row.line
        if first != row.line:
            problems.append(f"row {row.line}: the same IFPA number as row {first}")
    return problems


def _row_number(problem: str) -> int:
    """The row a problem ("row 4: …") is about, to list them in file order."""
    return int(problem.split(":", 1)[0].removeprefix("row "))


def _refusal(problems: list[str]) -> str:
    lines = ["Nothing was imported; fix these rows and upload the file again:"]
    lines += problems[:SHOWN_PROBLEMS]
    if len(problems) > SHOWN_PROBLEMS:
        lines.append(f"and {len(problems) - SHOWN_PROBLEMS} more")
    return "\n".join(lines)


async def import_roster(
    db: Database, guild_id: int, data: bytes, *, now: datetime
) -> RosterImported:
    """Check the file, then add every player in one transaction (or none)."""
    rows, removed = read_roster(data)
    async with db.transaction() as conn:
        league = await league_of(conn, guild_id)
        problems = await _clashes(conn, league, rows)
        if problems:
            raise BadRoster(_refusal(problems))
        added = [
            await join(conn, league, row.name, discord_id=row.discord_id, skill=row.skill,
                       now=now, ifpa_number=row.ifpa_number)
            for row in rows
        ]  # fmt: skip
        await recut_upcoming(conn, league.id)
    return RosterImported(
        tuple(a.player for a in added),
        tuple(a.player.name for a in added if a.restored),
        tuple(removed),
    )


async def _clashes(conn: aiosqlite.Connection, league: League, rows: list[RosterRow]) -> list[str]:
    """The rows that clash with the roster: a name or member already playing."""
    current = await people.players(conn, league.id)
    by_name = {p.name.casefold(): p for p in current}
    by_member = {p.discord_id: p for p in current if p.discord_id is not None}
    by_ifpa = {p.ifpa_number: p for p in current if p.ifpa_number is not None}
    problems = []
    for row in rows:
        if (p := by_name.get(row.name.casefold())) is not None:
            problems.append(f"row {row.line}: there is already a player called {p.name}")
        elif row.discord_id is not None and (p := by_member.get(row.discord_id)) is not None:
            problems.append(f"row {row.line}: that Discord member already plays as {p.name}")
        elif row.ifpa_number is not None and (p := by_ifpa.get(row.ifpa_number)) is not None:
            problems.append(f"row {row.line}: {p.name} already has IFPA number {row.ifpa_number}")
    return problems
