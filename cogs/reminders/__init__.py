"""`/remind`: the reminders a member asks for by DM, all off until they opt in.

`reminders_cog.py` the command; `reminders_text.py` its answer and how each
reminder DM reads. When reminders are owed, once each and at most three a
night: `bot/services/reminders.py` (with the groupings post, and from the
scheduler's sweep).
"""
