"""What Discord's refusals tell the sender: how long it asked the bot to wait,
and the refusal in a line for `/league admin status` and the commissioners'
alerts."""

from __future__ import annotations

from typing import Any

import discord

RETRY_AFTER_CAP = 86_400.0  # Discord's Retry-After is waited out, up to a day


def retry_after(error: BaseException) -> float:
    """How long Discord asked the bot to wait, in seconds, at most a day:
    discord.RateLimited's `retry_after`, or the Retry-After header of the 429 (or
    5xx) that discord.py gave up on, e.g. Cloudflare's ban in front of Discord.
    0 when it said nothing, or nothing that is a number of seconds."""
    value: Any = getattr(error, "retry_after", None)  # anything: float() decides below
    if value is None and isinstance(error, discord.HTTPException):
        value = error.response.headers.get("Retry-After")
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        return 0.0
    return min(seconds, RETRY_AFTER_CAP) if seconds > 0 else 0.0  # NaN is not > 0


def why(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or type(error).__name__}"[:300]
    return f"{type(error).__name__}: {error}"[:300]
