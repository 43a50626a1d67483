"""What services return for the bot to show: frozen dataclasses, no behaviour.

Services build these and `bot/ui` renders them, one module per area of the
league's shared core (the night, its posts, scores, cards, standings, notices,
exports, admin); a feature's own are in its folder
(`cogs/stats/stats_outcomes.py`). This package and `bot.services.errors` are the
only parts of `bot.services` that `bot/ui` may import (tests/test_layers.py):
they hold data and error types, import nothing of the project but `bot.models`
and `bot.scoring`, and call no service.
"""
