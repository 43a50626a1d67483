"""`/veto`: a player's machine picks for tonight, vetoes when a group has more
than five picks and repeats when it has fewer (R4), and locking each group's
five games at the lock time.

`picks_cog.py` the command; `picks.py` the service; `picks_text.py` the answer.
The lock post itself is worded with the week's other posts (`bot/ui/render.py`).
"""
