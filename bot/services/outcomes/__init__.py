"""What services return for the bot to show: frozen dataclasses, no behaviour.

Services build these and `bot/ui` renders them, one module per area of the
league (the night, its posts, scores, cards, standings, notices, money, stats,
exports, admin). This package and `bot.services.errors` are the
only parts of `bot.services` that `bot/ui` may import (tests/test_layers.py):
they hold data and error types, import nothing of the project but `bot.models`
and `bot.scoring`, and call no service.
"""
