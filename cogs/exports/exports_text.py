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
from collections.abc import Iterable
from datetime import date, datetime
from pathlib import Path

from bot.services.outcomes.exports import (
    Cents,
    ExportTable,
    ExportValue,
    RosterImported,
    SeasonExport,
)
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


def _entry(name: str, *, stored: bool = False) -> zipfile.ZipInfo:
    entry = zipfile.ZipInfo(name, date_time=ZIP_TIME)
    # a photo is compressed already (JPEG, PNG): stored as it is, which is fast
    entry.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
    return entry


def zip_bytes(export: SeasonExport, photos: Iterable[tuple[str, bytes]] = ()) -> bytes:
    """Every table of the season, one CSV each, in a zip file; with `photos`,
    (name, bytes) as scores.csv names them ('photos/week-1-…jpg')."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for table in export.tables:
            archive.writestr(_entry(f"{table.name}.csv"), csv_bytes(table))
        for name, data in photos:
            archive.writestr(_entry(name, stored=True), data)
    return buffer.getvalue()


ZIP_ENTRY = 128  # bytes a zip spends on each photo besides its data, at most (a long name)


def photos_size(export: SeasonExport) -> int:
    """How much the photos add to the season's zip."""
    return sum(p.size + ZIP_ENTRY for p in export.photos)


class FolderExport:
    """The command line's export: the CSV files, the photos (in `photos/`) and a
    zip of them all, written into a folder. Photos are added one at a time, so a
    season's photos never have to fit in memory together.

        with FolderExport(export, folder) as out:
            for name, data in photos:
                out.add_photo(name, data)
        out.written  # every file, the zip last
    """

    def __init__(self, export: SeasonExport, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.written: list[Path] = []
        self.photos = 0
        self._zip_path = folder / f"{file_stem(export)}.zip"
        self._archive = zipfile.ZipFile(self._zip_path, "w", compression=zipfile.ZIP_DEFLATED)
        for table in export.tables:
            path = folder / f"{table.name}.csv"
            data = csv_bytes(table)
            path.write_bytes(data)
            self._archive.writestr(_entry(path.name), data)
            self.written.append(path)

    def add_photo(self, name: str, data: bytes) -> None:
        path = self.folder / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        self._archive.writestr(_entry(name, stored=True), data)
        self.written.append(path)
        self.photos += 1

    def __enter__(self) -> FolderExport:
        return self

    def __exit__(self, *failed: object) -> None:
        self._archive.close()
        self.written.append(self._zip_path)


def write_folder(export: SeasonExport, folder: Path) -> list[Path]:
    """The CSV files and the zip of them into `folder` (made if missing), no photos."""
    with FolderExport(export, folder) as out:
        pass
    return out.written


def written_note(season: str, folder: FolderExport, out: str) -> str:
    """What `league-bot export` wrote: "Wrote 9 CSV files and 3 photos of Spring
    and their zip league-spring.zip to out/."."""
    csvs = sum(p.suffix == ".csv" for p in folder.written)
    count = folder.photos
    photos = f" and {count} photo{'s' if count != 1 else ''}" if count else ""
    return (
        f"Wrote {csvs} CSV file{'s' if csvs != 1 else ''}{photos} of {season} and their zip "
        f"{folder.written[-1].name} to {out}."
    )


def export_note(export: SeasonExport, *, final: bool, photos_left_out: bool = False) -> str:
    if final:
        return (
            f"Final standings of {export.season} with IFPA numbers, ready for the IFPA "
            "results submission."
        )
    text = f"{export.season}: {len(export.tables)} CSV files in a zip (columns in docs/commands.md)"
    count = len(export.photos)
    if not count:
        return text + "."
    photos = f"{count} photo{'s' if count != 1 else ''}"
    if not photos_left_out:
        return f"{text}, and the scores' {photos}."
    return (f"{text}. The scores' {photos} ({photos_size(export) / 1_048_576:.1f} MB) are more "
            "than Discord takes in one file; on the bot's computer, run: "
            "league-bot export --database FILE --out DIR")  # fmt: skip


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
