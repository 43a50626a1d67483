"""Application commands: checking a bulk overwrite as Discord does, and building
the `data` of an INTERACTION_CREATE from what a test says a member typed.

Discord's client only lets a member send a command that is registered, with
every required option, values of the option's type, inside its min/max and
among its choices. `build_invocation` enforces the same, so a test cannot
send what no member could.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND = 1, 2, 3
# Discord: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ (Python's \w is letters, digits and _).
NAME = re.compile(r"^[-_'\w]{1,32}$")
MAX_COMMANDS = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15}  # per guild, and global
MAX_OPTIONS = 25  # subcommands, groups or options on one level
MAX_CHOICES = 25
MAX_CHOICE_VALUE = 100
MAX_COMMAND_CHARS = 4000  # names, descriptions and choice values of one command, all levels


class InvalidInvocation(ValueError):
    """No Discord client could send this: unknown command or option, a missing
    required option, a value of the wrong type, out of range or not a choice."""


class CommandNotPermitted(PermissionError):
    """Discord would not show this command to this member (default_member_permissions)."""


def check_commands(payload: Any) -> dict[str, Any]:
    """Discord's form errors for a bulk overwrite, as {path: message}; {} when valid.

    Names (lowercase, 1-32 of - _ ' letters and digits), descriptions (1-100),
    at most 25 subcommands, groups or options per level, command > group >
    subcommand at most, required options first, 25 choices of at most 100
    characters, 4000 characters per command, 100 slash commands (15 user and
    15 message commands) per guild or globally."""
    errors: dict[str, Any] = {}
    if not isinstance(payload, list):
        return {"_root": "Expected a list of commands."}
    counts: dict[int, int] = {}
    seen: set[tuple[str, int]] = set()
    for index, command in enumerate(payload):
        where = str(index)
        if not isinstance(command, dict):
            errors[where] = "Expected an object."
            continue
        kind = command.get("type", CHAT_INPUT)
        counts[kind] = counts.get(kind, 0) + 1
        key = (str(command.get("name")), kind)
        if key in seen:
            errors[f"{where}.name"] = "Application command names must be unique."
        seen.add(key)
        _check_named(command, where, errors, chat_input=kind == CHAT_INPUT)
        if kind == CHAT_INPUT:
            _check_options(command.get("options") or [], f"{where}.options", errors, parent=0)
            if _chars(command) > MAX_COMMAND_CHARS:
                errors[where] = f"Command exceeds maximum size ({MAX_COMMAND_CHARS})."
        elif kind not in MAX_COMMANDS:
            errors[f"{where}.type"] = f"Unknown command type {kind!r}."
    for kind, count in counts.items():
        if count > MAX_COMMANDS.get(kind, count):
            errors["_root"] = (
                f"Maximum number of application commands of type {kind} reached "
                f"({MAX_COMMANDS[kind]})."
            )
    return errors


def _check_named(item: Mapping[str, Any], where: str, errors: dict[str, Any], *, chat_input: bool):
    name = item.get("name")
    if not isinstance(name, str) or not NAME.match(name) or (chat_input and name != name.lower()):
        errors[f"{where}.name"] = f"Invalid name {name!r}: lowercase, 1-32 of - _ letters, digits."
    if chat_input:
        description = item.get("description")
        if not isinstance(description, str) or not 1 <= len(description) <= 100:
            errors[f"{where}.description"] = "Must be between 1 and 100 in length."


def _check_options(options: list[Any], where: str, errors: dict[str, Any], *, parent: int) -> None:
    """`parent`: 0 for the command itself, else the type of the group or subcommand holding them."""
    if len(options) > MAX_OPTIONS:
        errors[where] = f"Must be {MAX_OPTIONS} or fewer in length."
    names: set[object] = set()  # as given: _check_named refuses a name that is not text
    optional_seen = False
    for index, option in enumerate(options):
        at = f"{where}.{index}"
        if not isinstance(option, dict):
            errors[at] = "Expected an object."
            continue
        _check_named(option, at, errors, chat_input=True)
        if option.get("name") in names:
            errors[f"{at}.name"] = "Option names must be unique."
        names.add(option.get("name"))
        kind = option.get("type")
        if kind in (SUB_COMMAND, SUB_COMMAND_GROUP):
            fits = parent == 0 or (parent == SUB_COMMAND_GROUP and kind == SUB_COMMAND)
            if not fits:
                errors[f"{at}.type"] = "Subcommands nest at most command > group > subcommand."
            inner = option.get("options") or []
            if kind == SUB_COMMAND_GROUP and any(
                o.get("type") != SUB_COMMAND for o in inner if isinstance(o, dict)
            ):
                errors[f"{at}.options"] = "A subcommand group holds only subcommands."
            if fits:
                _check_options(inner, f"{at}.options", errors, parent=kind)
            continue
        if kind not in range(STRING, ATTACHMENT + 1):
            errors[f"{at}.type"] = f"Unknown option type {kind!r}."
        if parent == SUB_COMMAND_GROUP:
            errors[f"{at}.type"] = "A subcommand group holds only subcommands."
        if option.get("required"):
            if optional_seen:
                errors[at] = "Required options must be placed before non-required options."
        else:
            optional_seen = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            errors[f"{at}.choices"] = f"Must be {MAX_CHOICES} or fewer in length."
        if choices and option.get("autocomplete"):
            errors[f"{at}.autocomplete"] = "Autocomplete cannot be set with choices."
        for number, choice in enumerate(choices):
            name = choice.get("name") if isinstance(choice, dict) else None
            if not isinstance(name, str) or not 1 <= len(name) <= 100:
                errors[f"{at}.choices.{number}.name"] = "Must be between 1 and 100 in length."
            value = choice.get("value") if isinstance(choice, dict) else None
            if isinstance(value, str) and not 1 <= len(value) <= MAX_CHOICE_VALUE:
                errors[f"{at}.choices.{number}.value"] = (
                    f"Must be between 1 and {MAX_CHOICE_VALUE} in length."
                )
    kinds = {o.get("type") for o in options if isinstance(o, dict)}
    if kinds & {SUB_COMMAND, SUB_COMMAND_GROUP} and kinds - {SUB_COMMAND, SUB_COMMAND_GROUP}:
        errors[where] = "Subcommands cannot be mixed with other options."


def _longest(item: Mapping[str, Any], key: str) -> int:
    """A field's characters: its longest localization when it has any (Discord counts that)."""
    variants = [str(item.get(key, ""))]
    variants += [str(v) for v in (item.get(f"{key}_localizations") or {}).values()]
    return max(len(v) for v in variants)


def _chars(item: Mapping[str, Any]) -> int:
    total = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        if isinstance(choice, dict):
            total += _longest(choice, "name") + len(str(choice.get("value", "")))
    return total + sum(_chars(o) for o in item.get("options") or [] if isinstance(o, dict))


def guess_command(name: str, path: list[str], values: Mapping[str, Any]) -> dict[str, Any]:
    """A stand-in definition for a command the bot never registered: option
    types from the Python values (bool, int, float, str); no member options."""
    node: dict[str, Any] = {
        "options": [
            {"name": key, "type": _guess_type(key, value), "description": key}
            for key, value in values.items()
        ]
    }
    for depth in range(len(path) - 1, -1, -1):
        kind = SUB_COMMAND if depth == len(path) - 1 else SUB_COMMAND_GROUP
        sub = path[depth]
        node = {"options": [{"name": sub, "type": kind, "description": sub, **node}]}
    return {"name": name, "type": CHAT_INPUT, "description": name, **node}


def _guess_type(name: str, value: Any) -> int:
    for python, kind in ((bool, BOOLEAN), (int, INTEGER), (float, NUMBER), (str, STRING)):
        if isinstance(value, python):
            return kind
    raise InvalidInvocation(f"option {name!r}: cannot tell the type of {value!r}")


@dataclass
class Invocation:
    """The `data` of an application-command interaction, and what it resolved."""

    command: dict[str, Any]
    options: list[dict[str, Any]]
    resolved_users: list[int] = field(default_factory=list)
    resolved_roles: list[int] = field(default_factory=list)
    resolved_channels: list[int] = field(default_factory=list)
    # option value (attachment id) -> what Discord puts in data.resolved.attachments
    resolved_attachments: dict[str, dict[str, Any]] = field(default_factory=dict)
    # attachment id -> the file's bytes, when the test gave them (the stand-in serves them)
    uploaded: dict[str, bytes] = field(default_factory=dict)


def build_invocation(
    command: dict[str, Any],
    path: list[str],
    values: Mapping[str, Any],
    *,
    focused: str | None = None,
    known_users: set[int],
    known_roles: set[int],
    known_channels: set[int],
    unchecked: bool = False,
) -> Invocation:
    """Options for `/path... name:value`: nested under the subcommand (group) named by `path`.

    `unchecked` sends values outside the option's ranges, lengths and choices,
    as a modified client could; types are still checked."""
    target = command
    chain: list[dict[str, Any]] = []
    for name in path:
        found = next(
            (
                o
                for o in target.get("options") or []
                if o.get("name") == name and o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if found is None:
            raise InvalidInvocation(f"/{command['name']} has no subcommand {name!r}")
        chain.append(found)
        target = found
    definitions = target.get("options") or []
    if any(o.get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in definitions):
        choices = ", ".join(o["name"] for o in definitions)
        raise InvalidInvocation(f"/{command['name']} {' '.join(path)}: pick one of {choices}")
    by_name = {o["name"]: o for o in definitions}
    unknown = set(values) - set(by_name)
    if unknown:
        raise InvalidInvocation(
            f"unknown option(s) {sorted(unknown)}; the command has {sorted(by_name)}"
        )
    if focused is not None and focused not in by_name:
        raise InvalidInvocation(f"focused option {focused!r} is not an option of the command")
    invocation = Invocation(command=command, options=[])
    built: list[dict[str, Any]] = []
    for definition in definitions:
        name = definition["name"]
        if name not in values:
            if definition.get("required") and focused is None:
                raise InvalidInvocation(f"option {name!r} is required")
            continue
        if name == focused:
            if not definition.get("autocomplete"):
                raise InvalidInvocation(f"option {name!r} has no autocomplete")
            built.append(
                {
                    "name": name,
                    "type": definition["type"],
                    "value": str(values[name]),
                    "focused": True,
                }
            )
            continue
        value = _typed(
            definition,
            values[name],
            invocation,
            known_users,
            known_roles,
            known_channels,
            unchecked=unchecked,
        )
        built.append({"name": name, "type": definition["type"], "value": value})
    for parent in reversed(chain):
        built = [{"name": parent["name"], "type": parent["type"], "options": built}]
    invocation.options = built
    return invocation


def _typed(
    definition: Mapping[str, Any],
    value: Any,
    invocation: Invocation,
    users: set[int],
    roles: set[int],
    channels: set[int],
    *,
    unchecked: bool = False,
) -> Any:
    name, kind = definition["name"], definition["type"]
    if unchecked:
        definition = {
            k: v
            for k, v in definition.items()
            if k not in ("min_length", "max_length", "min_value", "max_value", "choices")
        }
    if kind == STRING:
        if not isinstance(value, str):
            raise InvalidInvocation(f"option {name!r} takes text, not {value!r}")
        low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
        if not low <= len(value) <= high or (not value and not unchecked):
            raise InvalidInvocation(f"option {name!r}: {value!r} must be {low}-{high} characters")
    elif kind in (INTEGER, NUMBER):
        integral = kind == INTEGER
        ok = isinstance(value, int) if integral else isinstance(value, int | float)
        if isinstance(value, bool) or not ok:
            raise InvalidInvocation(f"option {name!r} takes a {'whole ' * integral}number")
        low, high = definition.get("min_value"), definition.get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise InvalidInvocation(f"option {name!r}: {value} is outside {low}..{high}")
    elif kind == BOOLEAN:
        if not isinstance(value, bool):
            raise InvalidInvocation(f"option {name!r} takes True or False")
    elif kind in (USER, ROLE, CHANNEL, MENTIONABLE):
        snowflake = int(value)
        pools = {USER: users, ROLE: roles, CHANNEL: channels, MENTIONABLE: users | roles}
        if snowflake not in pools[kind]:
            raise InvalidInvocation(f"option {name!r}: {snowflake} is nothing a member could pick")
        if snowflake in users and kind in (USER, MENTIONABLE):
            invocation.resolved_users.append(snowflake)
        elif kind == CHANNEL:
            invocation.resolved_channels.append(snowflake)
        else:
            invocation.resolved_roles.append(snowflake)
        return str(snowflake)
    elif kind == ATTACHMENT:
        return _attachment(name, value, invocation)
    else:
        raise InvalidInvocation(f"option {name!r}: type {kind} is not supported by the stand-in")
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise InvalidInvocation(
            f"option {name!r}: {value!r} is not one of {[c['value'] for c in choices]}"
        )
    return value


_ATTACHMENT_IDS = itertools.count(1_300_000_000_000_000_000)
ATTACHMENT_LIMIT = 10 * 1024 * 1024  # bytes a member may upload without boosts


def _attachment(name: str, value: Any, invocation: Invocation) -> str:
    """A file the member picked for an attachment option: {filename, size,
    content_type?, width?, height?, content?}. Discord's client refuses a file over
    the upload limit or an empty one; it sends any content type (or none). With
    `content` (bytes; its length is the size) the stand-in serves the file, so
    the bot can download it as it would from Discord's CDN."""
    if not isinstance(value, Mapping) or not isinstance(value.get("filename"), str):
        raise InvalidInvocation(f"option {name!r} takes a file: {{'filename': ..., 'size': ...}}")
    content = value.get("content")
    if content is not None and not isinstance(content, bytes):
        raise InvalidInvocation(f"option {name!r}: a file's content is bytes")
    size = value.get("size", len(content) if content is not None else None)
    if content is not None and size != len(content):
        raise InvalidInvocation(f"option {name!r}: size {size!r} is not the content's length")
    if isinstance(size, bool) or not isinstance(size, int) or not 0 < size <= ATTACHMENT_LIMIT:
        raise InvalidInvocation(
            f"option {name!r}: Discord uploads files of 1 to {ATTACHMENT_LIMIT:,} bytes"
        )
    key = str(
        1_300_000_000_000_000_000 + len(invocation.resolved_attachments) + id(invocation) % 10**9
    )
    filename = value["filename"]
    url = f"https://cdn.discordapp.com/ephemeral-attachments/{key}/{filename}"
    payload: dict[str, Any] = {
        "id": key, "filename": filename, "size": size, "url": url, "proxy_url": url,
    }  # fmt: skip
    for extra in ("content_type", "width", "height"):
        if value.get(extra) is not None:
            payload[extra] = value[extra]
    invocation.resolved_attachments[key] = payload
    if content is not None:
        invocation.uploaded[key] = content
    return key
