"""`/standings`, `/groups` and `/me`: the league's numbers, posted or private
(R7, R8, R11, R13).

`standings_cog.py` the commands; `standings_text.py` `/me` and the playoff
field. The standings themselves are shared with the weekly results post and the
export: the service `bot/services/standings.py` (what it returns in
`bot/services/outcomes/standings.py`), the pages and the picture in `bot/ui/`
and `bot/components/`.
"""
