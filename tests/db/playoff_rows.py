"""Rows the migration tests of the playoffs start from: a league (guild 5), its
season, and its playoff night (id 9)."""

PLAYOFF_NIGHT = (
    "INSERT INTO leagues (id, guild_id, name, created_at) VALUES (1, 5, 'L', 'now');"
    "INSERT INTO seasons (id, league_id, name, start_date, created_at)"
    " VALUES (1, 1, 'S', '2026-01-07', 'now');"
    "INSERT INTO nights (id, season_id, week, date, kind)"
    " VALUES (9, 1, 2, '2026-01-14', 'playoff');"
)
