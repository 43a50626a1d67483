"""`/rules [topic]`: the league's rules in plain words, with this league's numbers.

`rulebook_cog.py` the command; `rulebook.py` the service, reading this league's
settings and times; `rulebook_outcomes.py` what it returns; `rulebook_text.py`
the explanations and the rules document's sections.
"""
