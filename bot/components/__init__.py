"""The buttons, menus and pages that both the cogs and the outbox's sender
need: a group's scorecard, an old approval post's Approve and Reject, the
arrows of a long list. Below both: they import services and the UI's words,
never a cog or the sender. Each cog's `setup()` registers the persistent ones
it owns (bot.client loads the cogs)."""
