"""The scorecards: one approval card per group per night (and one per player's
pre-makeup day) in the approvals channel, where the commissioner approves and
rejects scores.

`scorecards_cog.py` registers the cards' buttons and menus so they survive a
restart; `scorecards_views.py` the buttons and menus; `scorecards_decisions.py`
what each click does (one transaction); `scorecards_text.py` the card's embeds
for a phone. Which card a score is on, and the card as it stands, is owed in
the score's own transaction, so it is the night's core
(`bot/services/scorecards.py`, `bot/services/outcomes/cards.py`).
"""
