"""`/setup`'s answers, as a server administrator reads them on a phone."""

from __future__ import annotations

NOT_ADMIN = "Only a server administrator (Manage Server) can set up the league here."
COMMANDS = (
    "To let the commissioners see the commissioner commands: Server Settings → "
    "Integrations → this bot → /league, /playoffs and /season → add @{role}. "
    "(Discord shows them to members with Manage Server until then; the bot itself "
    "lets only @{role} use them.)"
)


def refused(problems: list[str]) -> str:
    """What stops the bot from working with the places chosen; nothing was saved."""
    lines = [f"- {problem}" for problem in problems]
    return "\n".join(
        ["The league is not set up: the bot could not work with what you chose.", *lines,
         "Fix it in the server's settings (or pick other channels), then run /setup again."]
    )  # fmt: skip


def done(announcements: str, approvals: str, role: str, *, first: bool, league: bool) -> str:
    """The league's places, saved; how the commissioners get their commands; what next."""
    head = "The league is set up here." if first else "The league's places are changed."
    lines = [
        head,
        f"Announcements: #{announcements} (groupings, results, standings).",
        f"Approvals: #{approvals} (scores waiting for the commissioners).",
        f"Commissioners: @{role}.",
        COMMANDS.format(role=role),
    ]
    if not league:
        lines.append(
            "Next: a commissioner names the league with /league season setup, then starts "
            "a season with /league season start."
        )
    return "\n".join(lines)
