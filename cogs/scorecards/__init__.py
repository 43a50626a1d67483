"""The scorecards: one approval card per group per night (and one per player's
pre-makeup day) in the approvals channel, where the commissioner approves and
rejects scores.

`scorecards_cog.py` registers the cards' buttons and menus so they survive a
restart; `scorecards.py` the service (which card a score is on, the card as it
stands); `scorecards_decisions.py` the commissioner's clicks; `scorecards_outcomes.py`
what they return; `scorecards_text.py` the card's embeds for a phone;
`scorecards_views.py` its buttons and menus.
"""
