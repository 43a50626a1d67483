"""`/setup`: a server administrator sets up the server's league: its
announcements and approvals channels and its commissioner role, checked on the
spot (the bot must be able to work there), kept in the database by server
(`bot/services/server_setup.py`), and shown again by `/league admin status`.

`server_cog.py` the command; `server_text.py` its answers.
"""
