"""What the bot shows: message text within Discord's limits, and its buttons."""
