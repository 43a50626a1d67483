-- Issue #13: one approval card per group per night (and one per player's
-- pre-makeup day) in the approvals channel, instead of one post per score.
-- A card is worded when sent from the scores as they stand; its message id is
-- kept here so later edits find it. Scores and pre-makeups decided before
-- this keep their own posts (scores.approval_message_id) and buttons.
CREATE TABLE approval_cards (
    id         INTEGER PRIMARY KEY,
    group_id   INTEGER UNIQUE REFERENCES night_groups (id),   -- a group's card
    season_id  INTEGER REFERENCES seasons (id),               -- a pre-makeup card:
    player_id  INTEGER REFERENCES players (id),               --   one player's
    day        TEXT    CHECK (day IS NULL OR date(day) = day), --   on one local day
    message_id INTEGER,
    CHECK ((group_id IS NULL) = (player_id IS NOT NULL AND day IS NOT NULL AND season_id IS NOT NULL)),
    UNIQUE (season_id, player_id, day)
);
-- Which card a pre-makeup is on (a group's scores are on their group's card).
ALTER TABLE pre_makeups ADD COLUMN card_id INTEGER REFERENCES approval_cards (id);
-- The commissioner's reason for a rejection, shown on the card and told to the player.
ALTER TABLE scores ADD COLUMN reason TEXT CHECK (reason IS NULL OR length(reason) <= 300);
ALTER TABLE pre_makeups ADD COLUMN reason TEXT CHECK (reason IS NULL OR length(reason) <= 300);
