-- The league's facts. Results are derived by bot/scoring.py; a finalized night
-- also stores its results and the next week's groups so history never shifts.
-- Times are ISO-8601 UTC text, dates ISO-8601 text in the league's time zone.

-- One league per Discord guild (several seasons per league).
CREATE TABLE leagues (
    id              INTEGER PRIMARY KEY,
    guild_id        INTEGER NOT NULL UNIQUE,
    name            TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    time_zone       TEXT    NOT NULL DEFAULT 'America/New_York',           -- R1.3
    play_time       TEXT    NOT NULL DEFAULT '19:15' CHECK (play_time GLOB '[0-2][0-9]:[0-5][0-9]'),
    grace_until     TEXT    NOT NULL DEFAULT '19:30' CHECK (grace_until GLOB '[0-2][0-9]:[0-5][0-9]'),
    late_cutoff     TEXT    NOT NULL DEFAULT '15:00' CHECK (late_cutoff GLOB '[0-2][0-9]:[0-5][0-9]'),
    groupings_time  TEXT    NOT NULL DEFAULT '12:00' CHECK (groupings_time GLOB '[0-2][0-9]:[0-5][0-9]'),
    picks_lock_time TEXT    NOT NULL DEFAULT '19:15' CHECK (picks_lock_time GLOB '[0-2][0-9]:[0-5][0-9]'),
    created_at      TEXT    NOT NULL
);

-- A season and the rule settings it is played under (R1, R3.5, R7.5, R8.5, R9, R10, R13).
CREATE TABLE seasons (
    id                     INTEGER PRIMARY KEY,
    league_id              INTEGER NOT NULL REFERENCES leagues (id),
    name                   TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    start_date             TEXT    NOT NULL CHECK (date(start_date) = start_date),
    weekday                TEXT    NOT NULL DEFAULT 'Wednesday' CHECK (weekday IN
                               ('Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday')),
    regular_nights         INTEGER NOT NULL DEFAULT 10 CHECK (regular_nights BETWEEN 1 AND 52),
    games_per_night        INTEGER NOT NULL DEFAULT 5 CHECK (games_per_night BETWEEN 1 AND 10),
    pre_makeup_night_limit INTEGER NOT NULL DEFAULT 3 CHECK (pre_makeup_night_limit >= 0),
    bonus_start_week       INTEGER NOT NULL DEFAULT 3 CHECK (bonus_start_week >= 1),
    multiplier_start_week  INTEGER NOT NULL DEFAULT 7 CHECK (multiplier_start_week >= 2),
    division_week          INTEGER NOT NULL DEFAULT 6 CHECK (division_week >= 2),
    division_min_players   INTEGER NOT NULL DEFAULT 8 CHECK (division_min_players >= 4),
    two_swap_match_points  INTEGER NOT NULL DEFAULT 10 CHECK (two_swap_match_points >= 0),
    dues_cents             INTEGER NOT NULL DEFAULT 600 CHECK (dues_cents >= 0),
    payout_first_percent   INTEGER NOT NULL DEFAULT 75 CHECK (payout_first_percent BETWEEN 50 AND 100),
    status                 TEXT    NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
    created_at             TEXT    NOT NULL,
    UNIQUE (league_id, name)
);
CREATE UNIQUE INDEX one_open_season_per_league ON seasons (league_id) WHERE status = 'open';

-- R1.2: a skipped date is not a league night; later weeks move.
CREATE TABLE skipped_dates (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    date      TEXT    NOT NULL CHECK (date(date) = date),
    reason    TEXT    NOT NULL DEFAULT '',
    PRIMARY KEY (season_id, date)
);

-- A league member; removing one keeps their history (R12.4).
CREATE TABLE players (
    id          INTEGER PRIMARY KEY,               -- sign-up order (R8.2, R11.1)
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    discord_id  INTEGER,
    name        TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    skill       REAL    CHECK (skill IS NULL OR skill BETWEEN 1 AND 10),   -- R8.2
    extra_pre_makeup_nights INTEGER NOT NULL DEFAULT 0 CHECK (extra_pre_makeup_nights >= 0),  -- R3.5
    joined_at   TEXT    NOT NULL,
    removed_at  TEXT,
    UNIQUE (league_id, discord_id)
);
CREATE UNIQUE INDEX player_name_per_league ON players (league_id, name COLLATE NOCASE)
    WHERE removed_at IS NULL;

-- Machines in league order (R4.5 fills in this order); par per R6.
CREATE TABLE machines (
    id         INTEGER PRIMARY KEY,                 -- league machine order
    league_id  INTEGER NOT NULL REFERENCES leagues (id),
    name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    par        INTEGER CHECK (par IS NULL OR par BETWEEN 1 AND 10000000000000),
    working    INTEGER NOT NULL DEFAULT 1 CHECK (working IN (0, 1)),
    added_at   TEXT    NOT NULL,
    retired_at TEXT
);
CREATE UNIQUE INDEX machine_name_per_league ON machines (league_id, name COLLATE NOCASE);

-- R3.1: one official pre-makeup score per player and machine per season.
CREATE TABLE pre_makeups (
    id           INTEGER PRIMARY KEY,
    season_id    INTEGER NOT NULL REFERENCES seasons (id),
    player_id    INTEGER NOT NULL REFERENCES players (id),
    machine_id   INTEGER NOT NULL REFERENCES machines (id),
    score        INTEGER NOT NULL CHECK (typeof(score) = 'integer' AND score BETWEEN 0 AND 10000000000000),
    status       TEXT    NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    submitted_by INTEGER NOT NULL,                    -- Discord id
    submitted_at TEXT    NOT NULL,
    decided_by   INTEGER,                           -- Discord id of the commissioner
    decided_at   TEXT,
    approval_message_id INTEGER,
    CHECK ((status = 'pending') = (decided_at IS NULL))
);
CREATE UNIQUE INDEX one_pre_makeup_per_machine ON pre_makeups (season_id, player_id, machine_id)
    WHERE status <> 'rejected';

-- R3.1: the league players who were present when it was played.
CREATE TABLE pre_makeup_witnesses (
    pre_makeup_id INTEGER NOT NULL REFERENCES pre_makeups (id),
    player_id     INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (pre_makeup_id, player_id)
);

-- A league night of a season. Week numbers count nights actually held (R1.2).
CREATE TABLE nights (
    id           INTEGER PRIMARY KEY,
    season_id    INTEGER NOT NULL REFERENCES seasons (id),
    week         INTEGER NOT NULL CHECK (week >= 1),
    date         TEXT    NOT NULL CHECK (date(date) = date),
    status       TEXT    NOT NULL DEFAULT 'scheduled' CHECK (status IN ('scheduled', 'locked', 'finalized')),
    locked_at    TEXT,
    finalized_at TEXT,
    finalized_by INTEGER,
    pot_cents    INTEGER CHECK (pot_cents IS NULL OR pot_cents >= 0),
    UNIQUE (season_id, week),
    UNIQUE (season_id, date)
);

-- R4.1: the machines working for a night (P), set when picks lock.
CREATE TABLE night_machines (
    night_id   INTEGER NOT NULL REFERENCES nights (id),
    machine_id INTEGER NOT NULL REFERENCES machines (id),
    PRIMARY KEY (night_id, machine_id)
);

-- A night's groups: pool '' is the whole league, 'A'/'B' a division (R9.4).
CREATE TABLE night_groups (
    id       INTEGER PRIMARY KEY,
    night_id INTEGER NOT NULL REFERENCES nights (id),
    pool     TEXT    NOT NULL DEFAULT '' CHECK (pool IN ('', 'A', 'B')),
    position INTEGER NOT NULL CHECK (position >= 1),   -- 1 is the top group
    UNIQUE (night_id, pool, position)
);

CREATE TABLE group_members (
    group_id  INTEGER NOT NULL REFERENCES night_groups (id),
    night_id  INTEGER NOT NULL REFERENCES nights (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    ladder    INTEGER NOT NULL CHECK (ladder >= 1),     -- order within the group (R8.3)
    PRIMARY KEY (group_id, player_id),
    UNIQUE (night_id, player_id),
    UNIQUE (group_id, ladder)
);

-- R4.3: a player's picks (vetoes or repeats) for a night, in preference order.
CREATE TABLE picks (
    night_id   INTEGER NOT NULL REFERENCES nights (id),
    player_id  INTEGER NOT NULL REFERENCES players (id),
    position   INTEGER NOT NULL CHECK (position >= 1),
    machine_id INTEGER NOT NULL REFERENCES machines (id),
    PRIMARY KEY (night_id, player_id, position)
);

-- A group's games, numbered 1..5 (R4.6), resolved from the picks when they lock.
CREATE TABLE games (
    id         INTEGER PRIMARY KEY,
    group_id   INTEGER NOT NULL REFERENCES night_groups (id),
    number     INTEGER NOT NULL CHECK (number BETWEEN 1 AND 10),
    machine_id INTEGER NOT NULL REFERENCES machines (id),
    filled     INTEGER NOT NULL DEFAULT 0 CHECK (filled IN (0, 1)),  -- R4.5: applied by the bot
    UNIQUE (group_id, number)
);

-- R5.4: the commissioner's order for tied scores in a game.
CREATE TABLE tie_orders (
    game_id   INTEGER NOT NULL REFERENCES games (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    position  INTEGER NOT NULL CHECK (position >= 1),
    PRIMARY KEY (game_id, player_id),
    UNIQUE (game_id, position)
);

-- R2: late notices and absences.
CREATE TABLE notices (
    id          INTEGER PRIMARY KEY,
    night_id    INTEGER NOT NULL REFERENCES nights (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    kind        TEXT    NOT NULL CHECK (kind IN ('late', 'absent')),
    timing      TEXT    NOT NULL CHECK (timing IN ('advance', 'on_time', 'after_cutoff')),  -- R2.1
    minutes     INTEGER CHECK (minutes IS NULL OR minutes BETWEEN 1 AND 240),
    note        TEXT    NOT NULL DEFAULT '' CHECK (length(note) <= 200),
    given_by    INTEGER NOT NULL,                     -- Discord id of who gave it
    given_at    TEXT    NOT NULL,
    withdrawn_at TEXT
);
CREATE UNIQUE INDEX one_live_notice ON notices (night_id, player_id) WHERE withdrawn_at IS NULL;

-- Scores of a night's games. One live (pending or approved) score per player and game.
CREATE TABLE scores (
    id           INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL REFERENCES games (id),
    player_id    INTEGER NOT NULL REFERENCES players (id),
    score        INTEGER NOT NULL CHECK (typeof(score) = 'integer' AND score BETWEEN 0 AND 10000000000000),
    status       TEXT    NOT NULL DEFAULT 'pending'
                         CHECK (status IN ('pending', 'approved', 'rejected', 'superseded')),
    submitted_by INTEGER NOT NULL,                    -- Discord id
    submitted_at TEXT    NOT NULL,
    decided_by   INTEGER,
    decided_at   TEXT,
    approval_message_id INTEGER
);
CREATE UNIQUE INDEX one_live_score ON scores (game_id, player_id)
    WHERE status IN ('pending', 'approved');

-- R12.4: every change to a score: who, when, old and new, why.
CREATE TABLE score_changes (
    id          INTEGER PRIMARY KEY,
    game_id     INTEGER NOT NULL REFERENCES games (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    old_score   INTEGER,
    new_score   INTEGER NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN
                    ('correction', 'penalty', 'malfunction_replay', 'slam_tilt_replay', 'tilt_replay')),
    reason      TEXT    NOT NULL CHECK (length(reason) BETWEEN 1 AND 500),
    changed_by  INTEGER NOT NULL,
    changed_at  TEXT    NOT NULL
);
CREATE TRIGGER score_changes_are_append_only BEFORE UPDATE ON score_changes
BEGIN
    SELECT RAISE(ABORT, 'score changes are an audit trail and cannot be edited');
END;
CREATE TRIGGER score_changes_are_never_deleted BEFORE DELETE ON score_changes
BEGIN
    SELECT RAISE(ABORT, 'score changes are an audit trail and cannot be deleted');
END;

-- A finalized night's results per player (derived once, then kept: R6.3).
CREATE TABLE night_results (
    night_id          INTEGER NOT NULL REFERENCES nights (id),
    player_id         INTEGER NOT NULL REFERENCES players (id),
    group_id          INTEGER NOT NULL REFERENCES night_groups (id),
    place             INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
    attendance        TEXT    NOT NULL CHECK (attendance IN ('present', 'late', 'absent')),
    took_part         INTEGER NOT NULL CHECK (took_part IN (0, 1)),
    match_points      INTEGER NOT NULL,
    tns               REAL    NOT NULL,
    bonus_base        INTEGER NOT NULL,
    multiplier        INTEGER NOT NULL CHECK (multiplier BETWEEN 0 AND 3),
    bonus             INTEGER NOT NULL,
    league_points     INTEGER NOT NULL,
    tlp               INTEGER NOT NULL,
    week_result       TEXT    NOT NULL CHECK (week_result IN ('won', 'stayed', 'down')),
    used_pre_makeup_night INTEGER NOT NULL CHECK (used_pre_makeup_night IN (0, 1)),
    next_multiplier   INTEGER NOT NULL CHECK (next_multiplier BETWEEN 0 AND 3),
    payout_cents      INTEGER NOT NULL DEFAULT 0 CHECK (payout_cents >= 0),
    PRIMARY KEY (night_id, player_id)
);

-- A finalized night's per-game points.
CREATE TABLE game_results (
    game_id    INTEGER NOT NULL REFERENCES games (id),
    player_id  INTEGER NOT NULL REFERENCES players (id),
    score      INTEGER NOT NULL,
    source     TEXT    NOT NULL CHECK (source IN ('live', 'pre_makeup', 'zero_point', 'zero_point_limit')),
    points     INTEGER NOT NULL CHECK (points BETWEEN 0 AND 4),
    normalized REAL    NOT NULL,
    place      INTEGER NOT NULL CHECK (place BETWEEN 1 AND 4),
    PRIMARY KEY (game_id, player_id)
);

-- R10.1: dues paid, per night; R10.4 additions to the prize fund.
CREATE TABLE dues (
    id          INTEGER PRIMARY KEY,
    night_id    INTEGER NOT NULL REFERENCES nights (id),
    player_id   INTEGER NOT NULL REFERENCES players (id),
    cents       INTEGER NOT NULL CHECK (cents > 0),
    recorded_by INTEGER NOT NULL,
    recorded_at TEXT    NOT NULL,
    UNIQUE (night_id, player_id)
);

CREATE TABLE fund_additions (
    id          INTEGER PRIMARY KEY,
    season_id   INTEGER NOT NULL REFERENCES seasons (id),
    cents       INTEGER NOT NULL CHECK (cents > 0),
    note        TEXT    NOT NULL DEFAULT '',
    recorded_by INTEGER NOT NULL,
    recorded_at TEXT    NOT NULL
);

-- Scheduled and result posts: claimed before sending so none goes out twice.
CREATE TABLE posts (
    id          INTEGER PRIMARY KEY,
    league_id   INTEGER NOT NULL REFERENCES leagues (id),
    post_key    TEXT    NOT NULL,                      -- e.g. 'cutoff:2026-03-11'
    claimed_at  TEXT    NOT NULL,
    status      TEXT    NOT NULL DEFAULT 'claimed' CHECK (status IN ('claimed', 'sent', 'failed', 'skipped')),
    attempts    INTEGER NOT NULL DEFAULT 0,
    channel_id  INTEGER,
    message_id  INTEGER,
    last_error  TEXT,
    UNIQUE (league_id, post_key)
);

CREATE INDEX scores_by_game ON scores (game_id);
CREATE INDEX groups_by_night ON night_groups (night_id);
CREATE INDEX members_by_player ON group_members (player_id);
CREATE INDEX results_by_player ON night_results (player_id);
CREATE INDEX notices_by_night ON notices (night_id);
