"""tests/README.md maps every rule and every slash command to its tests, and
stays true: the tables are made from the tests (tests/coverage_map.py)."""

from __future__ import annotations

from tests import coverage_map
from tests.coverage_map import Command


def test_the_tables_in_tests_readme_are_up_to_date() -> None:
    found = coverage_map.commands()
    on_file = coverage_map.README.read_text(encoding="utf-8")
    assert on_file == coverage_map.written() + coverage_map.tables(found), (
        "tests/README.md is out of date: run python -m tests.coverage_map"
    )


def test_every_rule_is_cited_by_a_test() -> None:
    rules = coverage_map.by_rule(coverage_map._test_files())
    assert len(rules) >= 50 and "R1.1" in rules and "R13.2" in rules  # docs/rules.md was read
    assert [rule for rule, files in rules.items() if not files] == []


def test_every_command_has_a_test() -> None:
    found = coverage_map.commands()
    assert {"score", "league night finalize", "league admin status"} <= {c.name for c in found}
    covered = coverage_map.by_command(coverage_map._test_files(), found)
    assert [name for name, files in covered.items() if not files] == []


def test_a_file_covers_a_command_by_its_name_or_its_callback() -> None:
    lock = Command(
        "league night lock",
        "lock",
        (("cogs.league.night", "NightCommands"), ("cogs.commissioner", "Commissioner")),
    )
    assert coverage_map._names(lock, 'await invoke(who, "league night lock")')
    assert coverage_map._names(lock, "Typing /league night lock locks the picks.")
    assert coverage_map._names(lock, 'said = await run(bot, "night lock", week=2)')
    assert coverage_map._names(
        lock, "from cogs.league.night import NightCommands\nawait invoke(COG.lock, COG, i)"
    )
    assert coverage_map._names(
        lock, "from cogs.commissioner import Commissioner\nawait invoke(LEAGUE.lock, LEAGUE, i)"
    )
    assert not coverage_map._names(lock, "await invoke(COG.lock, COG, i)")  # another cog's lock
    assert not coverage_map._names(lock, "from cogs.league.night import NightCommands\nCOG.locked")
    assert not coverage_map._names(  # an attribute of the same name is not the command
        lock, "from cogs.league.night import NightCommands\nassert night.lock is None"
    )


def test_a_rule_is_cited_by_its_id_in_either_form() -> None:
    assert coverage_map._cites("R3.4", "def test_r3_4_zero_point_rule(): ...")
    assert coverage_map._cites("R3.4", '"""The Zero Point Rule (R3.4)."""')
    assert not coverage_map._cites("R3.4", "def test_r3_41_other(): ...")
    assert not coverage_map._cites("R3.4", "def test_r13_4(): ...")
    assert not coverage_map._cites("R3.4", "PAR3.4 is not a rule")


def test_no_two_test_files_share_a_name() -> None:
    """The test folders are not packages, so pytest imports each test file by
    its name alone: two files of one name stop the whole run at collection."""
    names = [p.name for p in coverage_map.ROOT.joinpath("tests").rglob("test_*.py")]
    assert sorted({n for n in names if names.count(n) > 1}) == []
