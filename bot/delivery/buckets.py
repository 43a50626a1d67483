"""A channel's posts and its message edits on discord.py limiters of their own.

Discord counts creating a channel's messages and editing them apart (5 per 5 s
each, per channel), yet answers both with the same X-RateLimit-Bucket.
discord.py keys its limiters by that name and the channel, so it would pace
both on one: once a few card edits had used up their window, a new card's post
would wait for it to reset. Edits get a limiter key of their own (the same
name and channel, marked as edits); each limiter then follows the headers of
its own requests, as Discord counts them. Were Discord ever to count the two
together, an edit over the limit would get a 429, which discord.py waits out.
"""

from __future__ import annotations

from typing import Any

from discord.http import HTTPClient, Route

EDIT = ("PATCH", "/channels/{channel_id}/messages/{message_id}")


class EditRoute(Route):
    """A message edit, keyed apart from the channel's posts."""

    @property
    def major_parameters(self) -> str:
        return f"{super().major_parameters}+edits"


def apart(route: Route) -> Route:
    """`route` with its own limiter key if it edits a channel's message."""
    if (route.method, route.path) != EDIT or isinstance(route, EditRoute):
        return route
    edit = object.__new__(EditRoute)
    edit.__dict__.update(vars(route))
    return edit


def keep_edits_apart(http: HTTPClient) -> None:
    """From now on `http` sends every message edit on the edits' own limiter."""
    request = http.request
    if getattr(request, "keeps_edits_apart", False):
        return

    async def keeping_edits_apart(route: Route, **kwargs: Any) -> Any:
        return await request(apart(route), **kwargs)

    keeping_edits_apart.keeps_edits_apart = True  # type: ignore[attr-defined]  # a marker, read above
    http.request = keeping_edits_apart  # type: ignore[method-assign]  # wraps discord.py's, in place
