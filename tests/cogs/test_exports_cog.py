"""/league admin export and /league player ifpa: a played season's
export read back with `csv` and checked against the database, over real
services and a real SQLite file."""

from __future__ import annotations

import csv
import io
import zipfile
from datetime import date, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest

from bot.models import Player
from bot.services import approvals, attendance, finalize, score_changes, scores, setup, standings
from bot.services.outcomes.exports import ExportValue
from bot.services.outcomes.playoffs import SeasonOrder
from bot.services.outcomes.standings import StandingRow
from cogs.closing import closing
from cogs.exports import exports
from cogs.exports.exports import FILES, UNKNOWN_MEMBER
from cogs.league import admin
from cogs.money import money
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, NEW_YORK, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, Said, click
from tests.cogs.league_play import (
    approved_pre_makeup,
    lock,
    night_of,
    play_week,
    snapshot,
    submit_all,
)
from tests.cogs.test_commissioner_cog import WEEK_1, private, run

LATER = at(date(2026, 3, 1))
# Week 2 (P3 and P4 swapped after week 1, R8.3): group 1 is P1 (absent), P2, P4.
WEEK_2 = {2: 200_000_000, 4: 280_000_000, 3: 150_000_000, 5: 200_000_000, 6: 100_000_000}
Rows = list[dict[str, str]]


async def played(bot: FakeBot) -> FakeBot:
    """Two finalized nights: week 1 everyone plays; P2 pays dues. Week 2 P1 is
    absent with one approved pre-makeup (Twilight Zone, R3.2; the others are the
    Zero Point Rule, R3.4), P2's first try at game 1 is rejected with a reason,
    and P2's game 2 is corrected (R12.4)."""
    await approved_pre_makeup(bot, 1, "Twilight Zone", 250_000_000)
    await play_week(bot, 1, WEEK_1)
    await money.record_dues(
        bot.db, GUILD, "P2", 1, by=COMMISSIONER.id, now=at(FIRST_NIGHT, "21:00")
    )
    await attendance.notify(bot.db, GUILD, PLAYERS[1].id, "absent", day=night_of(2),
                            now=at(night_of(2) - timedelta(days=2)))  # fmt: skip
    await lock(bot, 2)
    await scores.submit(bot.db, GUILD, PLAYERS[2].id, 1, 1_000, now=at(night_of(2), "19:50"))
    async with bot.db.read() as conn:
        (wrong,) = [row[0] for row in await conn.execute_fetchall("SELECT max(id) FROM scores")]
    await approvals.decide_score(
        bot.db, GUILD, wrong, False, by=COMMISSIONER.id, now=at(night_of(2), "19:55"),
        reason="photo shows 1,000,000",
    )  # fmt: skip
    await submit_all(bot, 2, WEEK_2)
    await score_changes.change(bot.db, GUILD, week=2, player_name="P2", game_number=2,
                               kind="correction", reason="typo", new_score=210_000_000,
                               by=COMMISSIONER.id, now=at(night_of(2), "22:30"))  # fmt: skip
    await finalize.finalize(bot.db, GUILD, by=COMMISSIONER.id, now=at(night_of(2), "23:00"))
    return bot


def tables(data: bytes) -> dict[str, Rows]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        return {
            name.removesuffix(".csv"): list(csv.DictReader(io.StringIO(
                archive.read(name).decode("utf-8-sig"), newline="")))
            for name in archive.namelist()
        }  # fmt: skip


async def export(bot: FakeBot, **options: Any) -> tuple[Said, bytes]:
    said = await run(bot, "admin export", when=LATER, **options)
    assert said.deferred is True and private(said)
    assert said.replies[-1].file is not None, said.text
    return said, said.replies[-1].file


async def query(bot: FakeBot, sql: str) -> list[tuple[Any, ...]]:
    async with bot.db.read() as conn:
        return [tuple(row) for row in await conn.execute_fetchall(sql)]


SOURCE = {"live": "live", "pre_makeup": "pre-makeup", "zero_point": "Zero Point"}


async def test_the_export_reads_back_as_the_database_has_it(league: FakeBot) -> None:
    bot = await played(league)
    said, data = await export(bot)
    assert said.text == "Spring: 11 CSV files in a zip (columns in docs/commands.md)."
    found = tables(data)
    assert sorted(found) == sorted(FILES)

    # Every finalized game: score, points and source as stored (R5, R3.2, R3.4).
    stored = await query(bot, (
        "SELECT n.week, g.number, p.name, r.score, r.points, r.source FROM game_results r"
        " JOIN games g ON g.id = r.game_id JOIN night_groups ng ON ng.id = g.group_id"
        " JOIN nights n ON n.id = ng.night_id JOIN players p ON p.id = r.player_id"))  # fmt: skip
    counted = {
        (int(r["week"]), int(r["game"]), r["player"], int(r["score"]), int(r["points"]),
         r["source"])
        for r in found["scores"] if r["points"]
    }  # fmt: skip
    assert counted == {(w, g, p, s, pts, SOURCE[src]) for w, g, p, s, pts, src in stored}
    assert {s for *_, s in stored} == {"live", "pre_makeup", "zero_point"}
    # Every live score entered is a row, in its state (the corrected one superseded).
    live = await query(bot, "SELECT status, count(*) FROM scores GROUP BY status")
    rows = [r for r in found["scores"] if r["source"] == "live"]
    assert {(st, sum(r["state"] == st for r in rows)) for st, _ in live} == set(live)
    rejected = [r for r in rows if r["state"] == "rejected"]
    assert [(r["player"], r["score"], r["reason"], r["decided_by"], r["points"])
            for r in rejected] == [("P2", "1000", "photo shows 1,000,000", "Koi", "")]  # fmt: skip
    # The pre-makeup entered before the season is a row of its own, week empty.
    entered = [r for r in found["scores"] if r["week"] == ""]
    assert [(r["player"], r["machine"], r["score"], r["state"]) for r in entered] == [
        ("P1", "Twilight Zone", "250000000", "approved")
    ]
    # Normalized as shown: par 1,000M, so 300M is 300,000 (R6.1).
    p1 = next(r for r in found["scores"] if r["player"] == "P1" and r["week"] == "1")
    assert (p1["normalized"], p1["par"], p1["decided_by"]) == ("300000", "1000000000", "Koi")
    assert p1["submitted_by"] == "P1" and p1["submitted_at"] == "2026-01-07T20:00:00-05:00"

    # Results: league points, MP and TLP per night as stored; movement R8.3.
    stored = await query(bot, (
        "SELECT n.week, p.name, r.match_points, r.league_points, r.tlp FROM night_results r"
        " JOIN nights n ON n.id = r.night_id JOIN players p ON p.id = r.player_id"))  # fmt: skip
    assert {
        (int(r["week"]), r["player"], int(r["match_points"]), int(r["league_points"]),
         int(r["tlp"]))
        for r in found["results"]
    } == set(stored)  # fmt: skip
    week1 = {r["player"]: r["next_week"] for r in found["results"] if r["week"] == "1"}
    assert week1 == {"P1": "stays", "P2": "stays", "P3": "down", "P4": "up", "P5": "stays",
                     "P6": "stays"}  # fmt: skip
    absent = next(r for r in found["results"] if r["week"] == "2" and r["player"] == "P1")
    assert (absent["attendance"], absent["pre_makeup_night"]) == ("absent", "yes")

    # Standings as /standings has them.
    rows = await standings.standings(bot.db, GUILD)
    assert [(r["rank"], r["player"], r["league_points"]) for r in found["standings"]] == [
        (str(r.rank), r.player.name, str(r.league_points)) for r in rows
    ]

    # Money in dollars: P2's dues (R10.1), the nightly payouts (R10.2).
    dues = [r for r in found["money"] if r["kind"] == "dues"]
    assert [(r["week"], r["player"], r["amount"], r["by"]) for r in dues] == [
        ("1", "P2", "6.00", "Koi")
    ]
    paid = await query(bot, "SELECT sum(payout_cents) FROM night_results")
    payouts = [r for r in found["money"] if r["kind"] == "payout"]
    assert sum(round(float(r["amount"]) * 100) for r in payouts) == paid[0][0]

    # The audit trail (R12.4), who by name.
    assert [(r["week"], r["game"], r["player"], r["old_score"], r["new_score"], r["kind"],
             r["reason"], r["changed_by"]) for r in found["audit"]] == [
        ("2", "2", "P2", "200000000", "210000000", "correction", "typo", "Koi")
    ]  # fmt: skip

    # Players and nights.
    assert [(r["name"], r["discord"], r["skill"]) for r in found["players"]] == [
        (f"P{n}", f"<@{PLAYERS[n].id}>", str(11 - n)) for n in range(1, 7)
    ]
    nights = found["nights"]
    assert [(r["week"], r["status"]) for r in nights[:3]] == [
        ("1", "finalized"),
        ("2", "finalized"),
        ("3", "scheduled"),
    ]
    (stamp,) = (await query(bot, "SELECT finalized_at FROM nights WHERE week = 1"))[0]
    local = datetime.fromisoformat(stamp).astimezone(NEW_YORK).isoformat()
    assert nights[0]["finalized_at"] == local and local.endswith("-05:00")  # R1.3
    assert nights[0]["finalized_by"] == "Koi"
    games = [r for r in found["games"] if r["week"] == "1" and r["group"] == "1"]
    assert [r["game"] for r in games] == ["1", "2", "3", "4", "5"]
    assert games[0]["players"] == "P1; P2; P3"


async def test_a_member_who_is_no_player_and_never_named_is_unknown_not_an_id(
    league: FakeBot,
) -> None:
    """Before Koi ran a /league command, the bot never saw their name."""
    bot = await played(league)
    done = await exports.export_season(bot.db, GUILD)
    audit = done.table("audit").rows
    assert audit[0][-1] == UNKNOWN_MEMBER
    text = "".join(str(v) for t in done.tables for row in t.rows for v in row)
    assert str(COMMISSIONER.id) not in text


async def test_final_standings_with_ifpa_numbers(league: FakeBot) -> None:
    bot = await played(league)
    said = await run(bot, "player ifpa", name="p3", number="#12345")
    assert said.text == "P3's IFPA number is 12345." and private(said)
    said, data = await export(bot, final=True)
    assert said.text.startswith("Final standings of Spring with IFPA numbers")
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    ranked = await standings.standings(bot.db, GUILD)
    assert list(rows[0]) == ["position", "name", "ifpa_number", "league_points", "division"]
    assert [(r["position"], r["name"], r["league_points"]) for r in rows] == [
        (str(s.rank), s.player.name, str(s.league_points)) for s in ranked
    ]
    assert {r["name"]: r["ifpa_number"] for r in rows}["P3"] == "12345"
    assert {r["name"]: r["ifpa_number"] for r in rows}["P1"] == ""


async def test_a_past_season_exports_by_name(league: FakeBot) -> None:
    bot = await played(league)
    await closing.close(bot.db, GUILD, confirm=True, now=LATER)
    await setup.start_season(bot.db, GUILD, "Summer", date(2026, 6, 3), now=LATER)
    _, data = await export(bot, season="spring")
    found = tables(data)
    assert {r["week"] for r in found["results"]} == {"1", "2"}
    _, data = await export(bot)
    assert tables(data)["results"] == []  # Summer has no night played yet


async def test_an_unknown_season_is_refused_naming_it(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "admin export", when=LATER, season="Winter")
    assert said.text == "There is no season called 'Winter'. Seasons: Spring."
    assert private(said) and all(r.file is None for r in said.replies)


async def test_an_export_over_discords_file_limit_is_refused(
    league: FakeBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    bot = await played(league)
    monkeypatch.setattr(admin, "FILE_LIMIT", 1000)
    said = await run(bot, "admin export", when=LATER)
    assert said.text.startswith("The export is 0.0 MB, over Discord's 0 MB limit")
    assert "league-bot export --database FILE --out DIR" in said.text
    assert private(said) and all(r.file is None for r in said.replies)


async def test_the_export_is_for_the_commissioner_only(league: FakeBot) -> None:
    said = await run(league, "admin export", user=PLAYERS[1], when=LATER)
    assert said.text == "Only the commissioner can do that."
    assert private(said) and all(r.file is None for r in said.replies)


# --- /league player ifpa -------------------------------------------------------------------


async def test_ifpa_numbers_are_set_and_cleared(league: FakeBot) -> None:
    bot = league
    said = await run(bot, "player ifpa", name="P1", number="1234567")
    assert said.text == "P1's IFPA number is 1234567."
    said = await run(bot, "player ifpa", name="P1", number="none")
    assert said.text == "P1's IFPA number was cleared."
    done = await exports.export_season(bot.db, GUILD)
    assert done.table("players").rows[0][3] is None


@pytest.mark.parametrize(
    ("name", "number", "message"),
    [
        (
            "P1",
            "12a",
            "'12a' is not an IFPA number: up to 7 digits, as on the player's IFPA "
            "page, or 'none' to clear it.",
        ),
        (
            "P1",
            "12345678",
            "'12345678' is not an IFPA number: up to 7 digits, as on the "
            "player's IFPA page, or 'none' to clear it.",
        ),
        (
            "P1",
            "0",
            "'0' is not an IFPA number: up to 7 digits, as on the player's IFPA page, "
            "or 'none' to clear it.",
        ),
        ("Zed", "123", "There is no player called 'Zed' in this league."),
        ("P2", "555", "P1 already has IFPA number 555."),
    ],
    ids=["letters", "too-long", "zero", "unknown-player", "taken"],
)
async def test_ifpa_refusals_change_nothing(
    league: FakeBot, name: str, number: str, message: str
) -> None:
    bot = league
    await run(bot, "player ifpa", name="P1", number="555")
    before = await snapshot(bot)
    said = await run(bot, "player ifpa", name=name, number=number)
    assert said.text == message and private(said)
    assert await snapshot(bot) == before


async def test_ifpa_is_for_the_commissioner_only(league: FakeBot) -> None:
    bot = league
    before = await snapshot(bot)
    said = await run(bot, "player ifpa", user=PLAYERS[2], name="P2", number="42")
    assert said.text == "Only the commissioner can do that."
    assert await snapshot(bot) == before


def test_r9_with_divisions_division_a_finishes_above_division_b() -> None:
    """A division B player with more points still finishes below all of A."""
    people = [Player(n, 1, None, f"P{n}", None, 0, False, ifpa_number=100 + n) for n in (1, 2, 3)]
    rows = [
        StandingRow(1, people[0], "B", 90, Fraction(0), 8, 1),
        StandingRow(2, people[1], "A", 80, Fraction(0), 8, 1),
        StandingRow(3, people[2], "A", 70, Fraction(0), 8, 1),
    ]
    table = exports.final_standings(rows, None)
    assert table.rows == ((1, "P2", 102, 80, "A"), (2, "P3", 103, 70, "A"), (3, "P1", 101, 90, "B"))


def test_r13_6_the_ifpa_positions_follow_the_playoff_places() -> None:
    """P3 won division A's playoffs: P3 finishes first, then P2, then B."""
    people = [Player(n, 1, None, f"P{n}", None, 0, False, ifpa_number=100 + n) for n in (1, 2, 3)]
    rows = [
        StandingRow(1, people[0], "B", 90, Fraction(0), 8, 1),
        StandingRow(2, people[1], "A", 80, Fraction(0), 8, 1),
        StandingRow(3, people[2], "A", 70, Fraction(0), 8, 1),
    ]
    decided = SeasonOrder({"A": [3, 2], "B": [1]}, frozenset())
    table = exports.final_standings(rows, decided)
    assert table.rows == ((1, "P3", 103, 70, "A"), (2, "P2", 102, 80, "A"), (3, "P1", 101, 90, "B"))


async def test_a_commissioner_who_only_clicks_approval_cards_is_named(league: FakeBot) -> None:
    """The approval card's buttons record the clicker's name, as /league does."""
    bot = league
    await lock(bot)
    for player in (1, 2, 3):
        await scores.submit(bot.db, GUILD, PLAYERS[player].id, 1, 1000 * player,
                            now=at(FIRST_NIGHT, "20:00"))  # fmt: skip
    await bot.outbox.flush()
    card = bot.channels[APPROVALS].sent[-1]
    button = next(c for c in card.view.children if getattr(c.item, "label", "") == (
        "Approve all complete"))  # fmt: skip
    said = await click(button, as_user(bot, COMMISSIONER, at(FIRST_NIGHT, "21:00")))
    assert private(said)
    done = await exports.export_season(bot.db, GUILD)
    decided = {row[6]: row[17] for row in done.table("scores").rows if row[13] == "approved"}
    assert decided == {"P1": "Koi", "P2": "Koi", "P3": "Koi"}


async def test_r8_3_movement_of_a_night_finalized_before_it_was_kept(league: FakeBot) -> None:
    """Rows finalized before movement was stored have '' (migration): the export
    works it out again from the places, the same movement the rules made."""
    bot = league
    await play_week(bot, 1, WEEK_1)
    before = await movement(bot)
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE night_results SET movement = ''")
    after = await movement(bot)
    assert after == before == {"P1": "stays", "P2": "stays", "P3": "down", "P4": "up",
                               "P5": "stays", "P6": "stays"}  # fmt: skip


async def movement(bot: FakeBot) -> dict[ExportValue, ExportValue]:
    rows = (await exports.export_season(bot.db, GUILD)).table("results").rows
    return {row[5]: row[15] for row in rows}  # player: movement
