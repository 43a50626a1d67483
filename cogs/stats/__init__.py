"""`/stats` and `/machine`: a player's and a machine's season, with the season
summary after the last night and a new season's roster change.

`stats_cog.py` the commands; `stats.py` the service (one read per answer, the
numbers from the rules' `bot/rules/stats.py`); `stats_outcomes.py` what it
returns; `stats_text.py` how it reads on a phone.
"""
