"""`/setup`'s and `/setup-night`'s answers, as a server administrator reads them on a phone."""

from __future__ import annotations

from bot.services.outcomes.admin import NightShown

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


def night(shown: NightShown, checks: list[str]) -> str:
    """/setup-night: how the league's nights show in Discord, as they stand now."""
    setup, league = shown.setup, shown.league
    weekday = shown.weekday
    lines = ["Saved. The league nights:" if shown.changed else "The league nights:"]
    if shown.season_weekday is not None and shown.season_weekday != weekday:
        lines.append(f"Weekday: {weekday}s from the next season; this season's nights stay "
                     f"on {shown.season_weekday}s.")  # fmt: skip
    else:
        lines.append(f"Weekday: {weekday}s.")
    if league is None:
        lines.append("Times: set once a commissioner names the league (/league season setup).")
    else:
        lines.append(
            f"Times: groupings {league.groupings_time:%H:%M}, late notices by "
            f"{league.late_cutoff:%H:%M}, picks lock {league.picks_lock_time:%H:%M}, play "
            f"{league.play_time:%H:%M}, grace until {league.grace_until:%H:%M}."
        )
    if setup.venue is not None:
        lines.append(f"Events: each league night is in the server's Events, at {setup.venue}.")
    else:
        lines.append("Events: off (give a venue to show each night in the server's Events).")
    lines.append(f"Thread per group: {'on' if setup.group_threads else 'off'}.")
    lines.append(f"Division roles: {'on' if setup.division_roles else 'off'}.")
    problems = [c for c in checks if not c.endswith(": ok")]
    if problems:
        lines += ["Before that works:", *(f"- {c}" for c in problems)]
    return "\n".join(lines)
