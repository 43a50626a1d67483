-- Which migration files made this database, one row per file. The runner adds a
-- row with each file it applies (files applied before this one get a row without
-- a time), so `league-bot restore` can tell a backup of this bot's league from
-- any other SQLite file that happens to have a schema version.
CREATE TABLE schema_migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at TEXT  -- UTC ISO 8601; NULL for the files applied before the record began
);
