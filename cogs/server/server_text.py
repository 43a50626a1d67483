"""`/setup`'s answers, as a server administrator reads them on a phone."""

from __future__ import annotations

NOT_ADMIN = "Only a server administrator (Manage Server) can set up the league here."
NOT_A_ROLE = (
    "@{role} cannot be the commissioner role: pick a role you give to the commissioners "
    "(not @everyone, nor a role a bot or a boost manages)."
)
COMMANDS = (
    "To let the commissioners see /league: Server Settings → Integrations → this bot → "
    "/league → add {role}. Discord shows it to members with Manage Server until then. "
    "The bot lets only {role} use the commissioner commands, there and in /playoffs "
    "and /season."
)


def refused(problems: list[str]) -> str:
    """What stops the bot from working with the places chosen; nothing was saved."""
    lines = [f"- {problem}" for problem in problems]
    return "\n".join(
        ["The league is not set up: the bot could not work with what you chose.", *lines,
         "Fix it in the server's settings (or pick other channels), then run /setup again."]
    )  # fmt: skip


def done(
    announcements: int, approvals: int, role: int, zone: str, *, first: bool, league: bool
) -> str:
    """The league's places, saved (as Discord shows a channel and a role: tappable
    on a phone); how the commissioners get their commands; what next."""
    head = "The league is set up here." if first else "The league's places are changed."
    lines = [
        head,
        f"Announcements: <#{announcements}> (groupings, results, standings).",
        f"Approvals: <#{approvals}> (scores waiting for the commissioners).",
        f"Commissioners: <@&{role}>.",
        f"Time zone: {zone} (the league's posts and times are in it).",
        COMMANDS.format(role=f"<@&{role}>"),
    ]
    if not league:
        lines.append(
            "Next: a commissioner names the league with /league season setup, then starts "
            "a season with /league season start."
        )
    return "\n".join(lines)
