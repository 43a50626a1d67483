-- Issue #13: where each player goes after the night (R8.3-R8.5): 'up', 'down'
-- or 'stays'. `week_result` is R9.2's tally, in which a player who moves up
-- without winning counts as "stayed"; the results post must say "moves up".
-- Rows finalized before this file have '' (unknown): the post then names only
-- what week_result knows for certain (won, moves down).
ALTER TABLE night_results ADD COLUMN movement TEXT NOT NULL DEFAULT ''
    CHECK (movement IN ('', 'up', 'down', 'stays'));
UPDATE night_results SET movement = 'down' WHERE week_result = 'down';
