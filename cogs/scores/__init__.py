"""`/score`, `/premakeup` and `/score-form`: a player's scores for tonight's
games (R5) and pre-makeup scores (R3), each waiting on its scorecard for the
commissioner (cogs/scorecards/).

`scores_cog.py` and `scores_form_cog.py` the commands; `scores_text.py` the
answers. Taking a score is the night's core, shared with the approvals and the
score changes (`bot/services/scores.py`, `bot/services/outcomes/scores.py`).
"""
