-- How a league's nights show in its Discord server, set by a server
-- administrator with /setup-night (its times are the league's own, in leagues):
-- the weekday of the seasons started from then on (NULL: Wednesday), the venue
-- its nights are at (NULL: no scheduled events in Discord), a thread per group
-- on league night, and the division roles (Division A, Division B).
ALTER TABLE server_setup ADD COLUMN weekday TEXT;
ALTER TABLE server_setup ADD COLUMN venue TEXT;
ALTER TABLE server_setup ADD COLUMN group_threads INTEGER NOT NULL DEFAULT 0
    CHECK (group_threads IN (0, 1));
ALTER TABLE server_setup ADD COLUMN division_roles INTEGER NOT NULL DEFAULT 0
    CHECK (division_roles IN (0, 1));

-- Each league night's scheduled event in Discord, as the bot last made it
-- (`shown`: the fields sent, as JSON), so a change of date, time or venue
-- edits it and a night cut from the season deletes it.
CREATE TABLE night_events (
    guild_id  INTEGER NOT NULL,
    night_id  INTEGER NOT NULL,  -- no reference: a night cut keeps its row until its event goes
    event_id  INTEGER NOT NULL,
    shown     TEXT    NOT NULL,
    PRIMARY KEY (guild_id, night_id)
);

-- Each group's thread on league night (a thread per group), in the
-- announcements channel: made once, when picks lock; the group's approved
-- scores are posted in it.
CREATE TABLE group_threads (
    guild_id  INTEGER NOT NULL,
    night_id  INTEGER NOT NULL,
    group_id  INTEGER NOT NULL,  -- night_groups.id, kept without a reference like night_events
    thread_id INTEGER NOT NULL,
    PRIMARY KEY (guild_id, group_id)
);

-- The division roles (Division A, Division B) in each server, found by name or
-- made by the bot, and who holds one because the bot gave it (from the
-- division week to the end of the season; the bot takes back only what it gave).
CREATE TABLE division_roles (
    guild_id INTEGER NOT NULL,
    division TEXT    NOT NULL CHECK (division IN ('A', 'B')),
    role_id  INTEGER NOT NULL,
    PRIMARY KEY (guild_id, division)
);
CREATE TABLE division_role_holders (
    guild_id   INTEGER NOT NULL,
    discord_id INTEGER NOT NULL,
    division   TEXT    NOT NULL CHECK (division IN ('A', 'B')),
    PRIMARY KEY (guild_id, discord_id)
);
