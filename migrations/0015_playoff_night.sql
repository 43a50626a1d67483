-- R13.4: playoff night is a night of its season, of kind 'playoff', numbered the
-- week after the last regular night; a season has one at most. Every read of the
-- regular season (standings, dues, the calendar) takes the regular nights only.
ALTER TABLE nights ADD COLUMN kind TEXT NOT NULL DEFAULT 'regular'
    CHECK (kind IN ('regular', 'playoff'));
CREATE UNIQUE INDEX one_playoff_night ON nights (season_id) WHERE kind = 'playoff';

-- R13.1, R13.5: each division's ('' without divisions) playoff field, set when the
-- last regular night is finalized: every player of the division by standing (1 is
-- the best); the first ones qualified, the others are alternates in that order.
-- A qualifier not checked in at the end of the grace period is replaced by the
-- next alternate (replaced_by), which a commissioner can undo before play starts.
-- `place`: the player's playoff place once their division's playoffs are decided
-- (R13.6: 1 is the champion); the others follow in standings order.
CREATE TABLE playoff_field (
    night_id      INTEGER NOT NULL REFERENCES nights (id),
    pool          TEXT    NOT NULL CHECK (pool IN ('', 'A', 'B')),
    standing      INTEGER NOT NULL CHECK (standing >= 1),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    qualified     INTEGER NOT NULL CHECK (qualified IN (0, 1)),
    checked_in_at TEXT,
    replaced_by   INTEGER REFERENCES players (id),
    replaced_at   TEXT,
    place         INTEGER CHECK (place IS NULL OR place >= 1),
    PRIMARY KEY (night_id, player_id),
    UNIQUE (night_id, pool, standing),
    CHECK ((replaced_by IS NULL) = (replaced_at IS NULL))
);
