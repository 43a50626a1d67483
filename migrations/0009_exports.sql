-- Exports, IFPA numbers and the roster import (issue #14).

-- A player's IFPA number (ifpapinball.com), for submitting the final standings.
ALTER TABLE players ADD COLUMN ifpa_number INTEGER
    CHECK (ifpa_number IS NULL OR ifpa_number BETWEEN 1 AND 9999999);

-- The display name of each member seen acting as commissioner (approving,
-- correcting, finalizing), so an export names who approved even when that
-- member is not a player. Updated when the name they act under changes.
CREATE TABLE member_names (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
    seen_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
