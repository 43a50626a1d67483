-- The league's own copy of each score's photo: checked, turned upright, downsized
-- and re-encoded without metadata when it was sent (bot/photos.py). The card links
-- to the copy's post in the approvals channel and the exports carry the copy, so
-- nothing depends on Discord's attachment links, which expire. Scores sent before
-- this keep only the link (scores.photo_url); new scores never store one.
CREATE TABLE score_photos (
    score_id   INTEGER PRIMARY KEY REFERENCES scores (id),
    format     TEXT    NOT NULL CHECK (format IN ('jpeg', 'png')),
    width      INTEGER NOT NULL CHECK (width BETWEEN 1 AND 10000),
    height     INTEGER NOT NULL CHECK (height BETWEEN 1 AND 10000),
    size       INTEGER NOT NULL CHECK (size BETWEEN 1 AND 10485760),
    data       BLOB    NOT NULL CHECK (length(data) = size),
    message_id INTEGER -- the copy's post in the approvals channel, once sent
);
