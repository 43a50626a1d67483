"""`/late` and `/absent`: a player's notice for a league night (R2), and what an
absence costs (R3).

`attendance_cog.py` the commands; `attendance.py` the service; `attendance_outcomes.py`
what it returns (a notice, a withdrawn one, a skipped date); `attendance_text.py`
the answers (what a missed game scores, for this player) and the commissioner's
line.
"""
