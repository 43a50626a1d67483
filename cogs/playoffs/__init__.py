"""`/playoffs`: playoff night, its format, its field and its bracket (R13).

`playoffs_cog.py` the commands: `field`, `bracket` and `pick` for everyone,
`date`, `checkin`, `undo`, `start`, `game` and `fix` for the commissioner;
`playoffs_text.py` the commissioner's replies; `playoffs_views.py` a bracket
match card's buttons (Pick the machine, Enter a game), registered so they work
after a restart. Playoff night is set by finalizing the last regular night and
its posts go out with the night's, so its services (`bot/services/playoffs.py`
and the `playoff_*`, `bracket_*` ones) and its words (`bot/ui/playoffs.py`,
`bot/ui/bracket.py`) are the league's core, below every feature.
"""
