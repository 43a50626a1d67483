"""`/score`, `/premakeup` and `/score-form`: a player's scores for tonight's
games (R5) and pre-makeup scores (R3), each waiting on its scorecard for the
commissioner (cogs/scorecards/).

`scores_cog.py` and `scores_form_cog.py` the commands; `scores.py` the service;
`scores_outcomes.py` what it returns; `scores_text.py` the answers.
"""
