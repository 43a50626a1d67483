"""Message bodies: Discord's limits on what a bot may send, and applying an edit.

The limits are the ones Discord answers with 400 (50006 empty message, 50035
invalid form body); a bot that trips one here would trip it in production.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from standin.world import EPHEMERAL, LOADING

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
# Discord's documented embed limits (Embed Limits, in characters; 25 fields).
EMBED_LIMITS = {"title": 256, "description": 4096, "footer.text": 2048, "author.name": 256}
MAX_FIELDS = 25
FIELD_LIMITS = {"name": 256, "value": 1024}
MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_CUSTOM_ID = 100
MAX_LABEL = 80
SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
SENDABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS
ACTION_ROW, BUTTON = 1, 2
SELECTS = (3, 5, 6, 7, 8)
LINK_STYLE, PREMIUM_STYLE = 5, 6


class BadMessage(Exception):
    """What Discord would answer: HTTP status, JSON error code, message, field errors."""

    headers: dict[str, str]  # set (not always) by the rate limiter's middleware, `standin.rest`

    def __init__(self, status: int, code: int, message: str, errors: dict[str, str] | None = None):
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors or {}

    def body(self) -> dict[str, Any]:
        """Discord's shape: errors nested by path ("0.options.3.name" ->
        {"0": {"options": {"3": {"name": {"_errors": [...]}}}}}); "_root" is the body's own."""
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = nest_errors(self.errors)
        return body


def nest_errors(errors: Mapping[str, str]) -> dict[str, Any]:
    nested: dict[str, Any] = {}
    for path, text in errors.items():
        node = nested
        for part in [] if path == "_root" else path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": _error_code(text), "message": text})
    return nested


def _error_code(text: str) -> str:
    if text.startswith("Must be between"):
        return "BASE_TYPE_BAD_LENGTH"
    if text.endswith("or fewer in length."):
        return "BASE_TYPE_MAX_LENGTH"
    if text.startswith("Embed size exceeds"):
        return "MAX_EMBED_SIZE_EXCEEDED"
    if text == "This field is required":
        return "BASE_TYPE_REQUIRED"
    if text.startswith("Command exceeds maximum size"):
        return "APPLICATION_COMMAND_TOO_LARGE"
    return "BASE_TYPE_INVALID"


def check_body(body: Mapping[str, Any], *, creating: bool, has_files: bool = False) -> None:
    """Raise BadMessage for what Discord would refuse in a message body."""
    errors: dict[str, str] = {}
    content = body.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors["content"] = "Must be a string."
        elif len(content) > MAX_CONTENT:
            errors["content"] = f"Must be {MAX_CONTENT} or fewer in length."
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        errors["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    elif sum(_embed_chars(e) for e in embeds) > MAX_EMBED_TOTAL:
        errors["embeds"] = f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}"
    for number, embed in enumerate(embeds):
        errors.update(_embed_errors(f"embeds.{number}", embed))
    errors.update(_component_errors(body.get("components") or []))
    if errors:
        raise BadMessage(400, 50035, "Invalid Form Body", errors)
    if creating and not (
        content or embeds or body.get("components") or body.get("sticker_ids") or has_files
        or body.get("poll")
    ):  # fmt: skip
        raise BadMessage(400, 50006, "Cannot send an empty message")


def _embed_errors(at: str, embed: Mapping[str, Any]) -> dict[str, str]:
    """One embed's own limits, as Discord words them (400 50035)."""
    errors: dict[str, str] = {}
    for path, limit in EMBED_LIMITS.items():
        part, _, key = path.partition(".")
        value = embed.get(part) if not key else (embed.get(part) or {}).get(key)
        if value is not None and len(str(value)) > limit:
            errors[f"{at}.{path}"] = f"Must be {limit} or fewer in length."
    fields = embed.get("fields") or []
    if len(fields) > MAX_FIELDS:
        errors[f"{at}.fields"] = f"Must be {MAX_FIELDS} or fewer in length."
    for number, item in enumerate(fields):
        for key, limit in FIELD_LIMITS.items():
            value = item.get(key)
            if not value:
                errors[f"{at}.fields.{number}.{key}"] = "This field is required"
            elif len(str(value)) > limit:
                errors[f"{at}.fields.{number}.{key}"] = f"Must be {limit} or fewer in length."
    return errors


def _embed_chars(embed: Mapping[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "")
    total += len((embed.get("author") or {}).get("name") or "")
    for item in embed.get("fields") or []:
        total += len(item.get("name") or "") + len(item.get("value") or "")
    return total


def _component_errors(rows: list[Any]) -> dict[str, str]:
    errors: dict[str, str] = {}
    if len(rows) > MAX_ROWS:
        errors["components"] = f"Must be {MAX_ROWS} or fewer in length."
    custom_ids: set[str] = set()
    for r, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != ACTION_ROW:
            errors[f"components.{r}"] = "Top-level components must be action rows."
            continue
        items = row.get("components") or []
        if not 1 <= len(items) <= MAX_BUTTONS_PER_ROW:
            errors[f"components.{r}.components"] = "Must be between 1 and 5 in length."
        if any(i.get("type") in SELECTS for i in items) and len(items) > 1:
            errors[f"components.{r}.components"] = "A select menu fills its row alone."
        for c, item in enumerate(items):
            at = f"components.{r}.components.{c}"
            custom_id = item.get("custom_id")
            if item.get("type") == BUTTON and item.get("style") in (LINK_STYLE, PREMIUM_STYLE):
                if custom_id is not None:
                    errors[at] = "Link buttons cannot have a custom_id."
                continue
            if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                errors[f"{at}.custom_id"] = f"Must be between 1 and {MAX_CUSTOM_ID} in length."
            elif custom_id in custom_ids:
                errors[f"{at}.custom_id"] = "Component custom id cannot be duplicated"
            else:
                custom_ids.add(custom_id)
            if len(item.get("label") or "") > MAX_LABEL:
                errors[f"{at}.label"] = f"Must be {MAX_LABEL} or fewer in length."
    return errors


def number_components(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copy the rows, giving every component the numeric `id` Discord assigns."""
    numbered: list[dict[str, Any]] = []
    counter = 0
    for row in rows:
        counter += 1
        copy = {**row, "id": row.get("id") or counter}
        items = []
        for item in row.get("components") or []:
            counter += 1
            items.append({**item, "id": item.get("id") or counter})
        copy["components"] = items
        numbered.append(copy)
    return numbered


def find_component(message: Mapping[str, Any], custom_id: str) -> dict[str, Any] | None:
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            if item.get("custom_id") == custom_id:
                return item
    return None


def apply_edit(
    message: dict[str, Any], body: Mapping[str, Any], attachments: list[dict[str, Any]]
) -> dict[str, Any]:
    """Change `message` in place as PATCH does; returns the fields that changed."""
    changed: dict[str, Any] = {}
    for key in ("content", "embeds"):
        if key in body:
            changed[key] = body[key] if body[key] is not None else ("" if key == "content" else [])
    if "components" in body:
        changed["components"] = number_components(body["components"] or [])
    if "flags" in body and body["flags"] is not None:
        kept = message.get("flags", 0) & (EPHEMERAL | ~SENDABLE_FLAGS)
        changed["flags"] = kept | (int(body["flags"]) & SENDABLE_FLAGS)
    if "attachments" in body or attachments:
        keep = {str(a.get("id")) for a in body.get("attachments") or []}
        old = [a for a in message.get("attachments", []) if a["id"] in keep]
        changed["attachments"] = old + attachments
    message.update(changed)
    if message.get("flags", 0) & LOADING:
        message["flags"] &= ~LOADING
    return changed
