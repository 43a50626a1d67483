"""The scorecards: one approval card per group per night (and one per player's
pre-makeup day) in the approvals channel, where the commissioner approves and
rejects scores.

`scorecards.py` the service (the card as it stands, read when it is sent; a
card whose message was deleted, posted again); `scorecards_outcomes.py` what it
returns; `scorecards_text.py` the card's embeds for a phone;
`scorecards_views.py` its buttons and menus; `scorecards_decisions.py` what each
click does (one transaction); `scorecards_cog.py` registers the buttons and
menus so they survive a restart. A card is owed in the transaction of the score
that puts it on the card, so that part is the night's core
(`bot/services/card_posts.py`).
"""
