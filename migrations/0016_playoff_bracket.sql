-- R13.3, bracket: the machines the commissioner names for playoff night's
-- matches; a match picks its games' machines among them.
CREATE TABLE playoff_machines (
    night_id   INTEGER NOT NULL REFERENCES nights (id),
    machine_id INTEGER NOT NULL REFERENCES machines (id),
    PRIMARY KEY (night_id, machine_id)
);

-- R13.3: a division's ('' without divisions) bracket matches. 4 players: two
-- semifinals (slot 1: seeds 1 v 4, slot 2: 2 v 3), then the final and the match
-- for third; 3 players: one semifinal (2 v 3), then the final against seed 1;
-- 2 players: the final. `high` is the better seed of the two.
CREATE TABLE playoff_matches (
    id       INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES nights (id),
    pool     TEXT    NOT NULL CHECK (pool IN ('', 'A', 'B')),
    round    TEXT    NOT NULL CHECK (round IN ('semifinal', 'final', 'third')),
    slot     INTEGER NOT NULL CHECK (slot IN (1, 2)),
    high_id  INTEGER NOT NULL REFERENCES players (id),
    low_id   INTEGER NOT NULL REFERENCES players (id),
    UNIQUE (night_id, pool, round, slot),
    CHECK (high_id <> low_id)
);

-- A match's games in order: the machine and who picked it (the higher seed for
-- game 1, then the loser of the game before), then both raw scores once played.
-- No machine twice in a match; an exact tie is replayed, so never stored.
CREATE TABLE playoff_games (
    match_id   INTEGER NOT NULL REFERENCES playoff_matches (id),
    game       INTEGER NOT NULL CHECK (game BETWEEN 1 AND 9),
    machine_id INTEGER NOT NULL REFERENCES machines (id),
    picked_by  INTEGER NOT NULL REFERENCES players (id),
    high_score INTEGER CHECK (high_score IS NULL OR (typeof(high_score) = 'integer'
                              AND high_score BETWEEN 0 AND 10000000000000)),
    low_score  INTEGER CHECK (low_score IS NULL OR (typeof(low_score) = 'integer'
                              AND low_score BETWEEN 0 AND 10000000000000)),
    played_at  TEXT,
    PRIMARY KEY (match_id, game),
    UNIQUE (match_id, machine_id),
    CHECK ((high_score IS NULL) = (low_score IS NULL)),
    CHECK ((high_score IS NULL) = (played_at IS NULL)),
    CHECK (high_score IS NULL OR high_score <> low_score)
);

-- R12.4: every correction of a bracket game's scores: who, when, old and new, why.
CREATE TABLE playoff_game_changes (
    id         INTEGER PRIMARY KEY,
    match_id   INTEGER NOT NULL REFERENCES playoff_matches (id),
    game       INTEGER NOT NULL,
    old_high   INTEGER NOT NULL,
    old_low    INTEGER NOT NULL,
    new_high   INTEGER NOT NULL,
    new_low    INTEGER NOT NULL,
    changed_by INTEGER NOT NULL,
    changed_at TEXT    NOT NULL,
    reason     TEXT    NOT NULL
);
