"""A season's export as CSV files: UTF-8 with a byte-order mark (so Excel on
Windows reads accents right), a header row, one file per table; zipped when
there are several. No Discord here: the command line writes the same files.

Values: money in dollars with two decimals ("6.00"), times ISO 8601 with the
league's UTC offset ("2026-03-11T19:40:00-04:00"), dates ISO 8601, yes/no, and
nothing at all for a value that does not apply. Text that a spreadsheet would
run as a formula gets a leading ' (`bot.text.spreadsheet_text`); numbers stay
numbers.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from datetime import date, datetime
from pathlib import Path

from bot.services.outcomes import Cents, ExportTable, ExportValue, RosterImported, SeasonExport
from bot.text import spreadsheet_text

# A fixed time for the zip's entries, so the same season zips to the same bytes.
ZIP_TIME = (2000, 1, 1, 0, 0, 0)


def cell(value: ExportValue) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Cents):
        sign = "-" if value.cents < 0 else ""
        whole, cents = divmod(abs(value.cents), 100)
        return f"{sign}{whole}.{cents:02d}"
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, str):
        return spreadsheet_text(value)
    return str(value)


def csv_bytes(table: ExportTable) -> bytes:
    """One table as a CSV file: UTF-8 with a byte-order mark, a header row, CRLF
    line ends (RFC 4180)."""
    out = io.StringIO(newline="")
    writer = csv.writer(out)
    writer.writerow(table.columns)
    writer.writerows([cell(v) for v in row] for row in table.rows)
    return out.getvalue().encode("utf-8-sig")


def file_stem(export: SeasonExport) -> str:
    """A file name for the season that every system accepts: "league-spring-2026"."""
    text = f"{export.league} {export.season}".casefold()
    return re.sub(r"[^0-9a-z]+", "-", text).strip("-")[:80] or "season"


def zip_bytes(export: SeasonExport) -> bytes:
    """Every table of the season, one CSV each, in a zip file."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for table in export.tables:
            entry = zipfile.ZipInfo(f"{table.name}.csv", date_time=ZIP_TIME)
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, csv_bytes(table))
    return buffer.getvalue()


def write_folder(export: SeasonExport, folder: Path) -> list[Path]:
    """The CSV files and the zip of them into `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for table in export.tables:
        path = folder / f"{table.name}.csv"
        path.write_bytes(csv_bytes(table))
        written.append(path)
    archive = folder / f"{file_stem(export)}.zip"
    archive.write_bytes(zip_bytes(export))
    written.append(archive)
    return written


def written_note(export: SeasonExport, written: list[Path], folder: str) -> str:
    """What `league-bot export` wrote: "Wrote 9 CSV files and their zip, …"."""
    csvs = sum(p.suffix == ".csv" for p in written)
    return (
        f"Wrote {csvs} CSV file{'s' if csvs != 1 else ''} of {export.season} and their zip "
        f"{written[-1].name} to {folder}."
    )


def export_note(export: SeasonExport, *, final: bool) -> str:
    if final:
        return (
            f"Final standings of {export.season} with IFPA numbers, ready for the IFPA "
            "results submission."
        )
    return f"{export.season}: {len(export.tables)} CSV files in a zip (columns in the README)."


def too_big(size: int, limit: int) -> str:
    return (
        f"The export is {size / 1_048_576:.1f} MB, over Discord's {limit // 1_048_576} MB "
        "limit for a file. On the bot's computer, run: league-bot export --database FILE --out DIR"
    )


def imported(done: RosterImported) -> str:
    """The reply to a roster import: how many, and who (short, for a phone)."""
    names = [p.name for p in done.added]
    count = len(names)
    shown = ", ".join(names[:30]) + (f" and {count - 30} more" if count > 30 else "")
    text = f"Imported {count} player{'s' if count != 1 else ''}: {shown}."
    if done.restored:
        text += f"\nWelcome back (history kept): {', '.join(done.restored)}."
    if done.left_out:
        text += f"\nLeft out (marked removed): {', '.join(done.left_out)}."
    return text
