"""Money: dues, the weekly payouts, the season prize fund and its shares (R10).

`money_cog.py` the `/league money …` commands (a group of the commissioner's
`/league`); `money.py` the service; `money_outcomes.py` what it returns;
`money_text.py` how it reads (dollars, places, shares).
"""
