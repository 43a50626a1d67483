"""Discord's rate limits and injected faults, each switchable per test.

    DiscordStandIn(limits=Limits())                  # Discord's rate limits (the e2e fixture)
    standin.limits.messages_per_channel = (5, 1.0)   # 5 posts a second per channel
    standin.limits.global_per_second = None          # no global limit
    standin.limits.switch_off()                      # kinder than Discord: no rate limits
    standin.fail_next("POST /channels/*/messages", status=502, times=2)
    standin.fail_next("POST /channels/*/messages", status=429, retry_after=30)  # a ban
    standin.slow("POST /channels/*/messages", 0.3)   # answers come 0.3 s late

`Limits()` has Discord's numbers for a bot: 5 messages per 5 s per channel
and 5 edits per 5 s per channel, counted apart (a channel whose posts are used
up still takes edits, and the other way round), and 50 requests a second
in all (the interaction callback and webhook-token routes are not bound by
the global limit, as on Discord). A `DiscordStandIn()` made without `limits`
enforces none (`Limits.none()`): the bot posts one approval per score faster
than 5 per 5 s, and the demo, the benchmarks and the older e2e tests that
send such bursts would wait for Discord's windows. Every response of a limited
route carries X-RateLimit-Limit, -Remaining, -Reset, -Reset-After and -Bucket;
as on Discord, posts and edits name the same X-RateLimit-Bucket although they
are counted apart (a client that keys its limits on that name alone, as
discord.py does, paces both on one), and -Remaining and -Reset-After are those
of the request's own count. A request over a limit gets 429 {"message": "You
are being rate limited.", "retry_after": seconds, "global": bool, "code": 0}
with Retry-After, X-RateLimit-Scope ("user" or "global") and, for the global
limit, X-RateLimit-Global: true. Windows run on the real (monotonic) clock, never on
the stand-in's `set_time` clock.
"""

from __future__ import annotations

import fnmatch
import hashlib
import math
import re
import time
from dataclasses import dataclass, field

API = "/api/v10"
RATE_LIMITED = "You are being rate limited."

# (method, path pattern) -> the count it is in; the channel id is the "major parameter".
_ROUTES = [
    ("POST", re.compile(rf"^{API}/channels/(\d+)/messages$"), "messages"),
    ("PATCH", re.compile(rf"^{API}/channels/(\d+)/messages/\d+$"), "edits"),
]
# The X-RateLimit-Bucket each count answers with. Discord names one bucket for
# creating and editing a channel's messages, yet counts them apart: reports on
# its API docs' tracker, from 2020 to 2026, show a post and an edit answered with
# the same hash and each with its own Remaining. The stand-in says the same.
_NAMES = {"messages": "channel messages", "edits": "channel messages"}
# Not bound by the global limit (Discord: interaction endpoints).
_NOT_GLOBAL = re.compile(rf"^{API}/(interactions/|webhooks/\d+/[^/]+)")


def _bucket_hash(name: str) -> str:
    return hashlib.sha1(name.encode()).hexdigest()[:32]


@dataclass
class Limits:
    """The limits in force; None switches one off. Change them at any time in a test."""

    messages_per_channel: tuple[int, float] | None = (5, 5.0)  # POST /channels/{id}/messages
    edits_per_channel: tuple[int, float] | None = (5, 5.0)  # PATCH /channels/{id}/messages/{m}
    global_per_second: int | None = 50
    global_window: float = 1.0  # seconds (Discord: 1; a test may widen it)

    @classmethod
    def none(cls) -> Limits:
        """No rate limits (kinder than Discord)."""
        return cls(messages_per_channel=None, edits_per_channel=None, global_per_second=None)

    def switch_off(self) -> None:
        """No rate limits at all (benchmarks; a test that is about something else)."""
        self.messages_per_channel = self.edits_per_channel = self.global_per_second = None

    def for_bucket(self, name: str) -> tuple[int, float] | None:
        return self.messages_per_channel if name == "messages" else self.edits_per_channel


@dataclass
class _Window:
    ends: float  # monotonic
    used: int = 0


@dataclass
class Verdict:
    """What the rate limiter says about one request: headers to send, and a 429 body if over."""

    headers: dict[str, str] = field(default_factory=dict)
    refusal: dict[str, object] | None = None
    remaining: int | None = None  # the bucket's X-RateLimit-Remaining after this request


class RateLimiter:
    """Fixed windows per (bucket, channel) and one global window of a second."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._windows: dict[tuple[str, str], _Window] = {}
        self._global: _Window | None = None

    def check(self, method: str, path: str, now: float) -> Verdict:
        """Count the request (unless it is refused) and say what to answer; `now` is monotonic."""
        verdict = Verdict()
        per_second = self.limits.global_per_second
        counted = path.startswith(API + "/")
        if per_second is not None and counted and not _NOT_GLOBAL.match(path):
            if self._global is None or now >= self._global.ends:
                self._global = _Window(now + self.limits.global_window)
            if self._global.used >= per_second:
                wait = _ms_up(self._global.ends - now)
                verdict.headers = {
                    "Retry-After": _whole_seconds(wait),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
                verdict.refusal = {
                    "message": RATE_LIMITED, "retry_after": wait, "global": True, "code": 0
                }  # fmt: skip
                return verdict
        else:
            counted = False
        bucket = self._bucket(method, path)
        limit = self.limits.for_bucket(bucket[0]) if bucket else None
        if bucket is not None and limit is not None:
            allowed, per = limit
            window = self._windows.get(bucket)
            if window is None or now >= window.ends:
                window = self._windows[bucket] = _Window(now + per)
            reset_after = _ms_up(window.ends - now)
            over = window.used >= allowed
            if not over:
                window.used += 1
            verdict.remaining = allowed - window.used
            verdict.headers = {
                "X-RateLimit-Limit": str(allowed),
                "X-RateLimit-Remaining": str(verdict.remaining),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": _bucket_hash(_NAMES[bucket[0]]),
            }
            if over:
                verdict.headers["Retry-After"] = _whole_seconds(reset_after)
                verdict.headers["X-RateLimit-Scope"] = "user"
                verdict.refusal = {
                    "message": RATE_LIMITED, "retry_after": reset_after, "global": False, "code": 0
                }  # fmt: skip
                return verdict
        if counted and self._global is not None:
            self._global.used += 1
        return verdict

    @staticmethod
    def _bucket(method: str, path: str) -> tuple[str, str] | None:
        for wanted, pattern, name in _ROUTES:
            if method == wanted and (found := pattern.match(path)):
                return name, found.group(1)
        return None


def _ms_up(seconds: float) -> float:
    """Whole milliseconds, rounded up: a client that waits this long finds the window reset."""
    return math.ceil(seconds * 1000) / 1000


def _whole_seconds(seconds: float) -> str:
    """Retry-After is whole seconds, rounded up (the body's retry_after has the fraction)."""
    return str(max(1, int(seconds) + (seconds % 1 > 0)))


def route_pattern(route: str) -> str:
    """'post /channels/*/messages' as matched against 'POST /channels/1/messages'."""
    method, _, pattern = route.strip().partition(" ")
    if not pattern.startswith("/"):
        raise ValueError(f"say the route as 'METHOD /path', e.g. 'POST /channels/*/messages', "
                         f"not {route!r}")  # fmt: skip
    return f"{method.upper()} {pattern}"


def _matches(method: str, path: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(f"{method} {path.removeprefix(API)}", pattern)


@dataclass
class _Fault:
    pattern: str
    status: int
    times: int
    retry_after: float | None = None


class Faults:
    """Transient server errors for the next N requests of a route: a 5xx, or
    the 429 of Cloudflare's ban in front of Discord (with its Retry-After)."""

    def __init__(self) -> None:
        self._pending: list[_Fault] = []

    def add(self, route: str, status: int, times: int, retry_after: float | None = None) -> None:
        if status == 429:
            if retry_after is None or retry_after <= 0:
                raise ValueError("a ban's 429 says when to come back: retry_after > 0")
        elif not 500 <= status <= 599:
            raise ValueError(f"a transient failure is a 5xx status or a ban's 429, not {status}")
        self._pending.append(_Fault(route_pattern(route), status, times, retry_after))

    def take(self, method: str, path: str) -> _Fault | None:
        """The fault to fail this request with (using up one of its times), or None."""
        for fault in self._pending:
            if _matches(method, path, fault.pattern):
                fault.times -= 1
                if fault.times <= 0:
                    self._pending.remove(fault)
                return fault
        return None

    @property
    def pending(self) -> int:
        return sum(f.times for f in self._pending)


class Delays:
    """Slow answers: a matching request is handled at once (a message is stored)
    but its answer leaves `seconds` later, as over a slow network. A client that
    dies meanwhile never learns what it made."""

    def __init__(self) -> None:
        self._routes: list[tuple[str, float]] = []

    def add(self, route: str, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"a delay is at least 0 s, not {seconds}")
        self._routes.append((route_pattern(route), seconds))

    def of(self, method: str, path: str) -> float:
        """How long the answer to this request waits (the first matching route's delay)."""
        return next((s for p, s in self._routes if _matches(method, path, p)), 0.0)
