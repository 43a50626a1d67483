"""`/veto`: a player's machine picks for tonight, vetoes when a group has more
than five picks and repeats when it has fewer (R4).

`picks_cog.py` the command; `picks_text.py` the answer. Locking the picks at the
lock time is the scheduler's, so the picks are the night's core, below every
feature (`bot/services/picks.py`).
"""
