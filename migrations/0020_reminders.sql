-- Reminders a member asked for with /remind (all off until they opt in): on
-- league day before the late-notice cutoff; after the grace period when one of
-- their scores is still missing; for a commissioner, scores still waiting for
-- approval after the night.
CREATE TABLE reminder_choices (
    league_id      INTEGER NOT NULL REFERENCES leagues (id),
    discord_id     INTEGER NOT NULL,
    league_day     INTEGER NOT NULL DEFAULT 0 CHECK (league_day IN (0, 1)),
    missing_scores INTEGER NOT NULL DEFAULT 0 CHECK (missing_scores IN (0, 1)),
    waiting_scores INTEGER NOT NULL DEFAULT 0 CHECK (waiting_scores IN (0, 1)),
    PRIMARY KEY (league_id, discord_id)
);

-- Each reminder DM owed, once: a night's reminder of a kind goes to a member at
-- most once on the night's date (a night moved by a skipped date is reminded of
-- again on its new date), and at most three reminders a night in all.
CREATE TABLE reminders_sent (
    night_id   INTEGER NOT NULL REFERENCES nights (id),
    day        TEXT    NOT NULL,
    discord_id INTEGER NOT NULL,
    kind       TEXT    NOT NULL CHECK (kind IN ('league_day', 'missing_scores', 'waiting_scores')),
    at         TEXT    NOT NULL,
    PRIMARY KEY (night_id, day, discord_id, kind)
);
