"""`/standings`, `/groups` and `/me`: the league's numbers, posted or private
(R7, R8, R11, R13).

`standings_cog.py` the commands; `standings.py` the service (the standings, a
player's season, the playoff field); `standings_outcomes.py` what it returns;
`standings_text.py` `/me` and the playoff field. The standings' pages and
picture are shared with the weekly results post: `bot/ui/embeds.py`,
`bot/ui/picture.py` and `bot/components/`.
"""
