-- A league night's attendance, in one place for the commissioner: who is in,
-- late, out, and who has said nothing. The commissioner checks in each player
-- who came, from the night's attendance board (a player with a score that
-- night is in as well).
CREATE TABLE checkins (
    night_id  INTEGER NOT NULL REFERENCES nights (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    at        TEXT    NOT NULL,
    by        INTEGER NOT NULL,
    PRIMARY KEY (night_id, player_id)
);

-- The night's attendance board: one message in the approvals channel, posted
-- with the groupings and edited in place as notices and check-ins come in.
-- `day` is the date it was posted for: a night moved to another date (a
-- skipped date) gets a new board with that day's groupings.
CREATE TABLE attendance_boards (
    night_id   INTEGER PRIMARY KEY REFERENCES nights (id),
    day        TEXT    NOT NULL,
    message_id INTEGER
);

-- Its edits are coalesced, as a card's: one waiting edit per board, worded
-- when sent from the night as it stands then.
CREATE UNIQUE INDEX outbox_one_waiting_board_edit ON outbox (guild_id, ref)
    WHERE kind = 'attendance_update' AND status = 'pending';
