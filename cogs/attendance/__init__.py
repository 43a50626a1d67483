"""`/late` and `/absent`: a player's notice for a league night (R2), and what an
absence costs (R3).

`attendance_cog.py` the commands; `attendance_text.py` the answers (what a
missed game scores, for this player). The notices themselves are the night's
core, below every feature: the picks, the lock and the finalizing read them
(`bot/services/attendance.py`, what it returns in
`bot/services/outcomes/notices.py`).
"""
