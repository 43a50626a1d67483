-- R13.3: a bracket match's card, one message per match of a division's bracket
-- (its semifinal 1 or 2, its final, its match for 3rd), edited in place as its
-- machines are picked and its games played. Kept by place in the bracket, not
-- by match: a correction that changes who plays a match not yet under way makes
-- that match again, and the same card shows who plays it now.
CREATE TABLE match_cards (
    id         INTEGER PRIMARY KEY,
    night_id   INTEGER NOT NULL REFERENCES nights (id),
    pool       TEXT    NOT NULL CHECK (pool IN ('', 'A', 'B')),
    round      TEXT    NOT NULL CHECK (round IN ('semifinal', 'final', 'third')),
    slot       INTEGER NOT NULL CHECK (slot IN (1, 2)),
    message_id INTEGER,
    UNIQUE (night_id, pool, round, slot)
);

-- Edits of a match card are coalesced, as an approval card's: one waiting edit
-- per card (it is worded when sent, from the match as it stands then).
CREATE UNIQUE INDEX outbox_one_waiting_match_edit ON outbox (guild_id, ref)
    WHERE kind = 'match_card_update' AND status = 'pending';
