-- Where each league lives in its Discord server: its announcements and
-- approvals channels, its commissioner role and its time zone, set by a server administrator
-- with /setup (or moved, once, from an older .env's ids: set_by NULL). One bot
-- serves any number of servers; each server's league is keyed by its id.
CREATE TABLE server_setup (
    guild_id                 INTEGER PRIMARY KEY,
    announcements_channel_id INTEGER NOT NULL,
    approvals_channel_id     INTEGER NOT NULL,
    commissioner_role_id     INTEGER NOT NULL,
    -- the league's time zone, an IANA name (NULL: LEAGUE_TIME_ZONE of .env)
    time_zone                TEXT,
    set_by                   INTEGER,
    set_at                   TEXT    NOT NULL,
    -- the last start-up alert its commissioner was told (NULL: none, or all was
    -- well): the same problems are not told again at every restart
    last_alert               TEXT,
    CHECK (announcements_channel_id <> approvals_channel_id)
);
