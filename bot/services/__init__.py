"""One function per user intent; each is one transaction over the database.

Services call the rules (`bot.scoring`) for every number and raise a
`LeagueError` whose message a player or the commissioner can act on.
"""
