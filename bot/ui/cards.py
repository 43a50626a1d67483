"""Approval cards as the commissioner sees them (issue #13): an embed laid out
for a phone, one field per game, one line per player; and the short answers
to the card's buttons, and the rejected player's notice."""

from __future__ import annotations

import discord

from bot.services.outcomes import (
    APPROVED,
    MISSING,
    REJECTED,
    WAITING,
    Approval,
    CardDecision,
    CardLine,
    CardView,
)

MARK = {APPROVED: "✓", WAITING: "⏳", REJECTED: "✗", MISSING: "–"}
LEGEND = "✓ approved · ⏳ waiting · ✗ rejected · – not in yet"
FIELD_LIMIT = 1024
REASON_SHOWN = 80  # characters of a reason on the card (the player gets it all)


def _line(line: CardLine, pre_makeups: bool) -> str:
    score = f"{line.score:,}" if line.score is not None else ""
    text = f"{score} {MARK[line.state]} ({line.note})" if pre_makeups else (
        f"{line.player} {score} {MARK[line.state]}".replace("  ", " "))  # fmt: skip
    if line.by is not None:  # a mention: Discord shows the real member, no name can fake it
        text += f" (by <@{line.by}>)"
    if line.photo:  # a link Discord shows as the word, opening the picture
        text += f" [photo]({line.photo})"
    if line.state == REJECTED and line.reason:
        reason = line.reason if len(line.reason) <= REASON_SHOWN else line.reason[:79] + "…"
        text += f" — {reason}"
    return text


def card_embed(card: CardView) -> discord.Embed:
    waiting = len(card.waiting)
    embed = discord.Embed(title=card.title[:256], description=LEGEND)
    for game in card.games[:25]:
        value = "\n".join(_line(line, card.pre_makeups) for line in game.lines) or "–"
        if len(value) > FIELD_LIMIT:
            value = value[: FIELD_LIMIT - 1] + "…"
        embed.add_field(name=game.label[:256], value=value, inline=False)
    embed.set_footer(text=f"{waiting} waiting for approval" if waiting else "All decided.")
    return embed


def game_option(label: str) -> str:
    return f"Approve {label}"[:100]


def score_option(line: CardLine, game_label: str) -> str:
    score = f"{line.score:,}" if line.score is not None else ""
    return f"{line.player} {score} · {game_label}"[:100]


def decided(done: CardDecision) -> str:
    """The clicker's short answer."""
    if done.rejected is not None:
        return f"Rejected {done.rejected.player}'s {done.rejected.score:,}; they are told why."
    if not done.count:
        left = ", ".join(g.label for g in done.incomplete or []) or "none"
        return f"Nothing approved: no game has all its scores in. Still waiting: {left}."
    games = ", ".join(g.label for g in done.approved)
    text = f"Approved {done.count} score{'s' if done.count != 1 else ''}: {games}."
    if done.incomplete:
        text += " Not complete yet: " + ", ".join(g.label for g in done.incomplete) + "."
    return text


def rejected_notice(found: Approval) -> str:
    """To the player whose score was rejected: what and what to do, then why. The
    first line alone is what a player whose DMs are closed gets as a mention in
    the announcements channel: the reason stays private (their /me shows it)."""
    if found.score is not None:
        view = found.score
        what = (f"your score of {view.score.score:,} on game {view.game.number} "
                f"({view.game.machine}), week {view.night.week}")  # fmt: skip
        reason = view.score.reason
        again = "Send it again with /score."
    else:
        assert found.pre_makeup is not None
        pm = found.pre_makeup
        what = f"your pre-makeup score of {pm.pre_makeup.score:,} on {pm.machine.name}"
        reason = pm.pre_makeup.reason
        again = "Send it again with /premakeup."
    why = f"\nReason: {reason}" if reason else ""
    return f"The commissioner rejected {what}. {again}{why}"
