"""The buttons, menus and pages that both the cogs and the outbox's sender need:
an old approval post's Approve and Reject, the arrows of a long list, the
standings picture, the suggestions while a name is typed. (A feature's own
buttons are in its folder, as the scorecards' in `cogs/scorecards/`.) Below
both: they import services and the UI's words, never a cog or the sender. Each
cog's `setup()` registers the persistent ones it owns (bot.client loads the
cogs)."""
