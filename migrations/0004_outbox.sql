-- The outbox: every message the bot owes, written in the same transaction as
-- the change that makes it owed, and delivered by one sender (bot/delivery/).
--
-- A row names WHAT is owed, not its words: `kind` and `ref` ('score:12',
-- 'night:5') are worded at send time from the league's current state, so a
-- post that waited shows what is true when it goes out. `data` (JSON) freezes
-- what cannot be read back later (a skipped date's withdrawn notices, a
-- scheduled post's text). `target` is a channel role resolved from the bot's
-- settings at send time, 'commissioners' (a DM to each member with the
-- commissioner role) or 'dm:<discord user id>'.
CREATE TABLE outbox (
    id              INTEGER PRIMARY KEY,                 -- delivery order
    guild_id        INTEGER NOT NULL,
    target          TEXT    NOT NULL CHECK (target IN ('announcements', 'approvals', 'commissioners')
                                            OR target GLOB 'dm:[0-9]*'),
    kind            TEXT    NOT NULL CHECK (length(kind) BETWEEN 1 AND 40),
    ref             TEXT    NOT NULL DEFAULT '' CHECK (length(ref) <= 100),
    data            TEXT    CHECK (data IS NULL OR json_valid(data)),
    -- Sent with the message (piece n adds '.n'), so a send whose answer was lost
    -- is not duplicated when it is retried: Discord returns the earlier message.
    nonce           TEXT    NOT NULL UNIQUE DEFAULT ('lb' || lower(hex(randomblob(8)))),
    status          TEXT    NOT NULL DEFAULT 'pending'
                            CHECK (status IN ('pending', 'sending', 'sent', 'failed', 'dropped')),
    attempts        INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    next_attempt_at TEXT,                                -- NULL: now
    pieces_sent     INTEGER NOT NULL DEFAULT 0 CHECK (pieces_sent >= 0),
    message_id      INTEGER,                             -- the (first) message it made or edited
    last_error      TEXT    CHECK (last_error IS NULL OR length(last_error) <= 500),
    created_at      TEXT    NOT NULL,
    sent_at         TEXT
);
CREATE INDEX outbox_unfinished ON outbox (guild_id, status, target, id);
-- Edits of an approval message are coalesced: one waiting edit per message
-- (it is worded when sent, from the score's state then).
CREATE UNIQUE INDEX outbox_one_waiting_edit ON outbox (guild_id, ref)
    WHERE kind = 'approval_update' AND status = 'pending';
-- One waiting alert per place it goes: it lists every failed post when sent.
CREATE UNIQUE INDEX outbox_one_waiting_alert ON outbox (guild_id, target)
    WHERE kind = 'alert' AND status = 'pending';
