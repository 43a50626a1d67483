"""The league's rules (docs/rules.md, R1-R13) as pure functions and frozen dataclasses.

Nothing in this package reads a clock, a file, the network or a database, and
nothing imports discord or aiosqlite (tests/scoring/test_purity.py enforces it).
`bot.scoring` is the public face other modules import from.
"""
