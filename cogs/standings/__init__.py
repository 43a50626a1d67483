"""`/standings`, `/groups` and `/me`: the league's numbers, posted or private
(R7, R8, R11, R13).

`standings_cog.py` the commands; `standings.py` the service (the standings, a
player's season, the playoff field); `standings_outcomes.py` what it returns.
The words are the shared `bot/ui/render.py` and `bot/ui/embeds.py`, the picture
`bot/ui/picture.py` and its paging `bot/components/`: the weekly results post
shows them too.
"""
