"""The season export's files as a spreadsheet shows them: each file's header
is the columns `docs/commands.md` documents, and whole rows of the played
season, one of each kind (a skipped date, a night in play, a player without a
Discord account or rating, a removed player, a score of each state and source,
dues, a fund addition, a payout), hold exactly what happened."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.components import picture
from bot.services import machine_list, membership, score_changes, scores, setup, skips
from cogs.exports.exports import FILES
from cogs.money import money
from tests.cogs.conftest import COMMISSIONER, PLAYERS, at
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import (
    NINE,
    divisions_from_week_2,
    lock,
    night_of,
    play_week,
)
from tests.cogs.test_commissioner_cog import run
from tests.cogs.test_exports_cog import export, played, tables
from tests.cogs.test_stats_cog_edges import SEVEN
from tests.moments import SETTING_AT

DOCS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def documented_columns() -> dict[str, list[str]]:
    """Each export file's columns as the docs' table lists them."""
    found = {}
    for line in DOCS.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\| `(\w+)\.csv` \| [^|]+ \| (.+) \|$", line)
        if match is None:
            continue
        columns = match.group(2)
        while re.search(r"\([^()]*\)", columns):  # explanations in brackets, nested too
            columns = re.sub(r" ?\([^()]*\)", "", columns)
        found[match.group(1)] = [c.strip() for c in columns.split(",")]
    return found


async def test_each_files_header_is_the_documented_columns(league: FakeBot) -> None:
    # A season of the two nights played: playoff night is set, playoffs.csv has rows.
    await setup.change_setting(league.db, GUILD, "regular_nights", 2, now=SETTING_AT)
    bot = await played(league)
    _, data = await export(bot)
    with_header = {name: list(rows[0]) for name, rows in tables(data).items() if rows}
    documented = documented_columns()
    assert sorted(documented) == sorted(FILES)
    assert with_header == {name: documented[name] for name in with_header}
    # A final group's season plays no bracket: its games' header is checked with a bracket's.
    assert set(FILES) - set(with_header) == {"playoff_games"}


async def season_of_every_kind(bot: FakeBot) -> FakeBot:
    await played(bot)
    await score_changes.change(bot.db, GUILD, week=2, player_name="P3", game_number=1,
                               kind="malfunction_replay", reason="ball stuck",
                               new_score=160_000_000, by=COMMISSIONER.id,
                               now=at(night_of(2), "23:30"))  # fmt: skip
    await skips.skip_date(bot.db, GUILD, night_of(4), "the bar is closed", now=at(night_of(3)))
    await membership.add_player(bot.db, GUILD, "Walk-in", discord_id=None, now=at(night_of(3)))
    await membership.remove_player(bot.db, GUILD, "P6", now=at(night_of(3), "09:00"))
    await money.add_to_fund(bot.db, GUILD, 2_500, "sponsor", by=COMMISSIONER.id,
                            now=at(night_of(3), "10:00"))  # fmt: skip
    for machine in ("Twilight Zone", "Theatre of Magic"):  # 4 working: a repeat (R4.2)
        await machine_list.set_working(bot.db, GUILD, machine, False)
    await lock(bot, 3)
    await scores.submit(bot.db, GUILD, PLAYERS[2].id, 1, 5_000_000, now=at(night_of(3), "20:00"))
    return bot


def row(columns: str, values: str) -> dict[str, str]:
    """A CSV row as `csv.DictReader` reads it: `values` split on '|'."""
    return dict(zip(columns.split(), values.split("|"), strict=True))


PLAYERS_CSV = "name discord skill ifpa status joined removed"
NIGHTS = "week date status machines_working pot locked_at finalized_at finalized_by skip_reason"
SCORES = (
    "week date division group game machine player score normalized par points place source "
    "state reason submitted_by submitted_at decided_by decided_at photo"
)
MONEY = "kind week date player amount note by at"
RESULTS = (
    "week date division group place player attendance match_points bonus_base multiplier "
    "bonus league_points tlp tns division_tally next_week pre_makeup_night payout"
)
ALL_FIVE = "Attack from Mars; Medieval Madness; Twilight Zone; The Addams Family; Monster Bash"


async def test_rows_of_every_kind(league: FakeBot) -> None:
    bot = await season_of_every_kind(league)
    _, data = await export(bot)
    found = tables(data)

    # players.csv: removed (when), a walk-in with no Discord account or rating.
    assert found["players"][-2:] == [
        row(PLAYERS_CSV, "P6|<@800000000000000006>|5||removed|2026-01-01T12:00:00-05:00|"
                     "2026-01-21T09:00:00-05:00"),
        row(PLAYERS_CSV, "Walk-in||||current|2026-01-21T12:00:00-05:00|"),
    ]  # fmt: skip

    # nights.csv: finalized, in play (two machines out), to come, and the skipped date last.
    nights = found["nights"]
    assert [nights[1], nights[2], nights[3], nights[-1]] == [
        row(NIGHTS, f"2|2026-01-14|finalized|{ALL_FIVE}; Theatre of Magic|0.00|"
                    "2026-01-14T19:15:00-05:00|2026-01-14T23:30:00-05:00|Koi|"),
        row(NIGHTS, "3|2026-01-21|locked|Attack from Mars; Medieval Madness; The Addams Family; "
                    "Monster Bash||2026-01-21T19:15:00-05:00|||"),
        row(NIGHTS, "4|2026-02-04|scheduled||||||"),
        row(NIGHTS, "|2026-01-28|skipped||||||the bar is closed"),
    ]  # fmt: skip

    # games.csv: four working machines for five games, so each group repeats one,
    # chosen by the bot as nobody asked for a repeat (R4.2, R4.5).
    week_3 = [(r["group"], r["game"], r["machine"], r["filled_by_bot"])
              for r in found["games"] if r["week"] == "3"]  # fmt: skip
    assert [g for g in week_3 if g[0] == "1"] == [
        ("1", "1", "Attack from Mars", "no"),
        ("1", "2", "Attack from Mars", "yes"),
        ("1", "3", "Medieval Madness", "no"),
        ("1", "4", "The Addams Family", "no"),
        ("1", "5", "Monster Bash", "no"),
    ]

    # scores.csv: week by week, group by group, game by game; in a game the live
    # scores first, then what stood in for an absent player (R3.2, R3.4).
    scores_csv = found["scores"]
    keys = [(r["week"], r["group"], r["game"]) for r in scores_csv if r["week"]]
    assert keys == sorted(keys, key=lambda k: (int(k[0]), k[1], int(k[2])))
    game_4 = [r for r in scores_csv if (r["week"], r["group"], r["game"]) == ("2", "1", "4")]
    assert game_4 == [
        row(SCORES, "2|2026-01-14||1|4|Monster Bash|P2|200000000|200000|1000000000|2|2|live|"
                    "approved||P2|2026-01-14T20:00:00-05:00|Koi|2026-01-14T22:00:00-05:00|"),
        row(SCORES, "2|2026-01-14||1|4|Monster Bash|P4|280000000|280000|1000000000|4|1|live|"
                    "approved||P4|2026-01-14T20:00:00-05:00|Koi|2026-01-14T22:00:00-05:00|"),
        row(SCORES, "2|2026-01-14||1|4|Monster Bash|P1|0|0|1000000000|0|3|Zero Point|applied"
                    "||||||"),
    ]  # fmt: skip
    stood_in = [r for r in scores_csv if r["week"] == "2" and r["source"] == "pre-makeup"]
    assert stood_in == [
        row(SCORES, "2|2026-01-14||1|2|Twilight Zone|P1|250000000|250000|1000000000|2|2|"
                    "pre-makeup|approved||P1|2026-01-04T12:00:00-05:00|Koi|"
                    "2026-01-04T12:00:00-05:00|"),
    ]  # fmt: skip
    assert scores_csv[-2:] == [
        row(SCORES, "3|2026-01-21||1|1|Attack from Mars|P2|5000000|||||live|pending||P2|"
                    "2026-01-21T20:00:00-05:00|||"),
        row(SCORES, "|||||Twilight Zone|P1|250000000|||||pre-makeup|approved||P1|"
                    "2026-01-04T12:00:00-05:00|Koi|2026-01-04T12:00:00-05:00|"),
    ]  # fmt: skip

    # results.csv: the absent player's night, dated.
    absent = [r for r in found["results"] if r["attendance"] == "absent"]
    assert absent == [
        row(RESULTS, "2|2026-01-14||1|3|P1|absent|2|0|1|0|2|2|250000|down|down|yes|0.00"),
    ]

    # money.csv: dues, a fund addition and the night's payouts, each with who and
    # when; the prizes as they stand, said to be provisional (R10.4).
    money_csv = found["money"]
    assert money_csv[:4] == [
        row(MONEY, "dues|1|2026-01-07|P2|6.00||Koi|2026-01-07T21:00:00-05:00"),
        row(MONEY, "fund addition||||25.00|sponsor|Koi|2026-01-21T10:00:00-05:00"),
        row(MONEY, "payout|1|2026-01-07|P1|2.25||Koi|2026-01-07T21:00:00-05:00"),
        row(MONEY, "payout|1|2026-01-07|P4|0.75||Koi|2026-01-07T21:00:00-05:00"),
    ]
    prizes = [(r["kind"], r["player"], r["note"], r["by"]) for r in money_csv[4:]]
    provisional = "provisional: the season is not over"
    assert [(kind, note, by) for kind, _, note, by in prizes] == [
        ("prize", f"place 1, {provisional}", ""),
        ("prize", f"place 2, {provisional}", ""),
        ("prize", f"place 3, {provisional}", ""),
        ("prize", f"consolation, {provisional}", ""),
    ]

    # audit.csv: who changed a score, when, and the kind in words (R12.4).
    assert found["audit"][-1] == {
        "changed_at": "2026-01-14T23:30:00-05:00", "week": "2", "game": "1", "player": "P3",
        "old_score": "150000000", "new_score": "160000000", "kind": "malfunction replay",
        "reason": "ball stuck", "changed_by": "Koi",
    }  # fmt: skip


async def test_with_divisions_rows_go_division_by_division(league: FakeBot) -> None:
    """R9: from the division week scores.csv runs division A's groups, then B's,
    game by game within each group; results.csv names each player's division."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=2)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    _, data = await export(bot)
    found = tables(data)
    week_2 = [(r["division"], r["group"], r["game"]) for r in found["scores"] if r["week"] == "2"]
    groups = list(dict.fromkeys((division, group) for division, group, _ in week_2))
    assert groups == [("A", "1"), ("A", "2"), ("B", "1"), ("B", "2")]
    assert week_2 == sorted(week_2, key=lambda k: (k[0], k[1], int(k[2])))
    divisions = {r["player"]: r["division"] for r in found["results"] if r["week"] == "2"}
    assert sorted(divisions.values()) == ["A"] * 4 + ["B"] * 5
    assert divisions["P1"] == "A" and divisions["P9"] == "B"
    # The season ends with week 2: its prizes are final, each division's own.
    notes = [r["note"] for r in found["money"] if r["kind"] == "prize"]
    assert notes[0] == "division A, place 1" and "division B, place 1" in notes


async def next_week_column(bot: FakeBot, week: int) -> dict[str, str]:
    _, data = await export(bot)
    return {r["player"]: r["next_week"] for r in tables(data)["results"] if r["week"] == str(week)}


async def worked_out_again(bot: FakeBot, week: int) -> dict[str, str]:
    """The column for a night finalized before movement was kept (the
    migration left it ''): the export works it out from the places."""
    async with bot.db.transaction() as conn:
        await conn.execute("UPDATE night_results SET movement = ''")
    return await next_week_column(bot, week)


@pytest.mark.parametrize(
    ("setting", "p2", "p5"), [(None, "down", "up"), ("11", "stays", "stays")]
)  # fmt: skip
async def test_r8_5_an_old_nights_two_swap_is_worked_out_with_the_leagues_setting(
    league: FakeBot, setting: str | None, p2: str, p5: str
) -> None:
    """Seven players, a group of 4 under a group of 3 whose two first scored
    10 MP: they swap two at the default of 10 MP, one at a setting of 11."""
    bot = league
    await run(bot, "player add", name="P7", member=PLAYERS[7], skill=4.0)
    if setting is not None:
        await run(bot, "season setting", name="two_swap_match_points", value=setting)
    await play_week(bot, 1, SEVEN)
    stored = await next_week_column(bot, 1)
    assert (stored["P2"], stored["P3"], stored["P4"], stored["P5"]) == (p2, "down", "up", p5)
    assert await worked_out_again(bot, 1) == stored


async def test_r9_4_an_old_division_nights_movement_is_worked_out_per_division(
    league: FakeBot,
) -> None:
    bot = league
    await divisions_from_week_2(bot)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    stored = await next_week_column(bot, 2)
    moves = ["down", "up", "down", "up", "stays", "stays"]  # R9.4: P2-P4 in A, P6-P8 in B
    assert [stored[f"P{n}"] for n in (2, 4, 6, 8, 3, 7)] == moves
    assert await worked_out_again(bot, 2) == stored


async def test_r9_r11_1_standings_csv_holds_each_players_division_nights_and_tns(
    league: FakeBot,
) -> None:
    """standings.csv, row by row: the division a player played in last, the
    nights they took part in, the season's TNS as the sum of their nights' TNS
    (each night's rounded to whole points in results.csv, hence the slack)."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=3)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    _, data = await export(bot)
    found = tables(data)
    results = found["results"]
    assert {r["player"] for r in found["standings"]} == {r["player"] for r in results}
    for row in found["standings"]:
        mine = [r for r in results if r["player"] == row["player"]]
        last = max(mine, key=lambda r: int(r["week"]))
        assert row["division"] == last["division"] in ("A", "B"), row
        took_part = [r for r in mine if r["attendance"] != "absent"]
        assert int(row["nights"]) == len(took_part) == 2, row
        nights_tns = sum(int(r["tns"]) for r in mine)
        assert nights_tns > 0 and abs(int(row["tns"]) - nights_tns) <= len(mine), row
    assert [int(r["rank"]) for r in found["standings"]] == list(range(1, 10))


async def test_r8_6_a_player_added_after_the_last_night_has_no_division_and_no_nights(
    league: FakeBot,
) -> None:
    """Added once the season's nights are all played: last in the standings,
    with no division and 0 nights, and the standings picture still draws."""
    bot = league
    await divisions_from_week_2(bot, regular_nights=2)
    await play_week(bot, 2, NINE, groups=("A1", "A2", "B1", "B2"))
    await membership.add_player(bot.db, GUILD, "Late Joiner", discord_id=None,
                                now=at(night_of(2)))  # fmt: skip
    _, data = await export(bot)
    last = tables(data)["standings"][-1]
    assert (last["rank"], last["player"], last["division"], last["league_points"],
            last["tns"], last["nights"]) == ("10", "Late Joiner", "", "0", "0", "0")  # fmt: skip
    png = await picture.standings_png(bot.db, GUILD, "Standings")
    assert png.startswith(b"\x89PNG")
