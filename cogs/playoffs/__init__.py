"""`/playoffs`: playoff night, its format and its field (R13).

`playoffs_cog.py` the commands: `field` for everyone, `date` for the
commissioner; `playoffs_text.py` the commissioner's replies. Playoff night is
set by finalizing the last regular night and its posts go out with the night's,
so its service (`bot/services/playoffs.py`) and its words (`bot/ui/playoffs.py`)
are the league's core, below every feature.
"""
