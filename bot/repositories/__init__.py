"""SQL over aiosqlite: named statements with ? placeholders, records out (bot.models)."""
