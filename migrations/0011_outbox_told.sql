-- When the commissioner was told of a failed post (the alert that listed it was
-- sent): the next alert lists only the posts refused since, so one refusal is
-- never reported twice. Put back to NULL when a resend owes the post again.
ALTER TABLE outbox ADD COLUMN told_at TEXT;
