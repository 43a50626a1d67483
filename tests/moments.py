"""Moments the tests share. A setting changed in a test's set-up is stamped with
SETTING_AT: only a playoff change after the format was announced owes a post,
and the tests of that pass their own moment."""

from datetime import UTC, datetime

SETTING_AT = datetime(2026, 1, 2, 12, tzinfo=UTC)
