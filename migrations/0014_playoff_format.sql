-- R13.3: the playoff format, a season setting changed with /league season setting.
-- 'final_group': each division's field plays one group of playoff_games games;
-- 'bracket': single elimination, each match best of playoff_best_of games.
-- A season made before this keeps the league's default: a final group of 5 games.
ALTER TABLE seasons ADD COLUMN playoff_format TEXT NOT NULL DEFAULT 'final_group'
    CHECK (playoff_format IN ('final_group', 'bracket'));
ALTER TABLE seasons ADD COLUMN playoff_games INTEGER NOT NULL DEFAULT 5
    CHECK (playoff_games BETWEEN 1 AND 10);
ALTER TABLE seasons ADD COLUMN playoff_best_of INTEGER NOT NULL DEFAULT 3
    CHECK (playoff_best_of BETWEEN 1 AND 9 AND playoff_best_of % 2 = 1);
