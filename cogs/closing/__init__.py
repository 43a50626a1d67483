"""`/season close` and `/season reopen`: a season closed by the commissioner,
before its end (confirmed, the summary and prizes by standings, R13.6) or after
its playoffs, and opened again until the next season starts.

`closing_cog.py` the commands; `closing.py` the service; `closing_outcomes.py`
what it returns; `closing_text.py` how it reads on a phone.
"""
