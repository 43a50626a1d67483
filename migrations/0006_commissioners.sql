-- Commissioners the bot can reach by DM without the privileged members intent:
-- the Discord user id of each member seen passing the commissioner role check
-- (a /league command or an approval click), forgotten when a later
-- interaction shows they no longer hold the role.
CREATE TABLE commissioners (
    guild_id INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    seen_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
