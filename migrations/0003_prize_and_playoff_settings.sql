-- R10.4 and R13.1 as per-season settings, changed with /league season setting.
-- The defaults are RuleSettings' (bot/rules/settings.py), so a season made
-- before this migration keeps the split and the playoff field it had.

-- R13.1: qualifiers per division = division size // divisor, clamped to min..max.
ALTER TABLE seasons ADD COLUMN playoff_divisor INTEGER NOT NULL DEFAULT 3
    CHECK (playoff_divisor BETWEEN 1 AND 20);
ALTER TABLE seasons ADD COLUMN playoff_min INTEGER NOT NULL DEFAULT 2
    CHECK (playoff_min BETWEEN 1 AND 16);
ALTER TABLE seasons ADD COLUMN playoff_max INTEGER NOT NULL DEFAULT 4
    CHECK (playoff_max BETWEEN 1 AND 16);

-- R10.4: each division's place prizes, percent of the fund, best first ("30,15,10"),
-- and its consolation prize, percent of that division's second-place prize.
ALTER TABLE seasons ADD COLUMN prize_places_a TEXT NOT NULL DEFAULT '30,15,10'
    CHECK (length(prize_places_a) BETWEEN 1 AND 40);
ALTER TABLE seasons ADD COLUMN prize_places_b TEXT NOT NULL DEFAULT '20,10,7'
    CHECK (length(prize_places_b) BETWEEN 1 AND 40);
ALTER TABLE seasons ADD COLUMN prize_consolation_a INTEGER NOT NULL DEFAULT 20
    CHECK (prize_consolation_a BETWEEN 0 AND 100);
ALTER TABLE seasons ADD COLUMN prize_consolation_b INTEGER NOT NULL DEFAULT 50
    CHECK (prize_consolation_b BETWEEN 0 AND 100);
