"""Approval cards as the commissioner sees them: embeds laid out
for a phone, one field per game, one line per player; and the short answers
to the card's buttons, and the rejected player's notice.

Every card the rules allow fits in one message (Discord: 6,000 characters over
all its embeds, 25 fields an embed, 1,024 a field): a card is worded in full
when it fits, else in the first of `STYLES` that fits, each shorter than the
one before (reasons shortened, photo links of decided scores left out, names
and machines shortened), so a night of 4 players and 10 games with the
longest names, a photo on every score and every reason still shows each
score and its state. Values are cut between lines, never inside a link.
"""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.services.outcomes.scores import Approval, PhotoPost
from bot.ui.calendar import night_name
from bot.ui.fit import ELLIPSIS, cut_line, size, values
from cogs.scorecards.scorecards_outcomes import (
    APPROVED,
    MISSING,
    REJECTED,
    WAITING,
    CardDecision,
    CardLine,
    CardPhoto,
    CardView,
)

MARK = {APPROVED: "✓", WAITING: "⏳", REJECTED: "✗", MISSING: "–"}
LEGEND = "✓ approved · ⏳ waiting · ✗ rejected · – not in yet"
PHOTO_LEGEND = " · 📷 photo"  # on a card with photos
OLD_LEGEND = " (an old link may have expired)"  # a photo sent before copies were kept
FIELD_LIMIT, MESSAGE_LIMIT, FIELDS, EMBEDS = 1024, 6000, 25, 10  # Discord's embed limits
LONGEST_LINK = 300  # a link longer than this (an old Discord one) is never shown
PHOTO = "📷"


@dataclass(frozen=True)
class Style:
    """How much of each line a card shows; None: all of it."""

    names: int | None = None  # characters of a player's name
    machines: int | None = None  # characters of a machine's name in a game's heading
    reasons: int = 80  # characters of a rejection's reason (0: none; the player has it all)
    by_decided: bool = True  # "(by @member)" on a decided score sent by someone else
    by_waiting: bool = True  # … and on a waiting one (what the commissioner checks)
    links_decided: bool = True  # a photo's link on a decided score (else a plain 📷)
    links_waiting: bool = True


STYLES = (
    Style(),
    Style(reasons=40, links_decided=False),
    Style(reasons=40, by_decided=False, links_decided=False),
    Style(names=32, machines=40, reasons=40, by_decided=False, links_decided=False),
    Style(names=24, machines=32, reasons=30, by_decided=False, links_decided=False),
    Style(names=20, machines=28, reasons=0, by_decided=False, links_decided=False),
    Style(names=16, machines=24, reasons=0, by_decided=False, by_waiting=False,
          links_decided=False),
    Style(names=12, machines=20, reasons=0, by_decided=False, by_waiting=False,
          links_decided=False, links_waiting=False),
)  # fmt: skip


def jump_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A message's permanent link (Discord's "Copy Message Link")."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def shortened(text: str, limit: int | None) -> str:
    """`text` in at most `limit` characters: its start and its end around "…"
    (a surname is often what tells two players apart)."""
    if limit is None or len(text) <= limit:
        return text
    tail = limit // 3
    return text[: limit - 1 - tail].rstrip() + ELLIPSIS + text[len(text) - tail :].lstrip()


def short_names(names: list[str], limit: int | None) -> dict[str, str]:
    """Each name as the card shows it: shortened, but never so that two read alike."""
    every = list(dict.fromkeys(names))
    for cap in range(limit, max(map(len, every), default=0) + 1) if limit else ():
        shown = {name: shortened(name, cap) for name in every}
        if len(set(shown.values())) == len(every):
            return shown
    return {name: name for name in every}


def _photo(photo: CardPhoto, where: tuple[int, int], linked: bool) -> str:
    if photo.message_id is not None:
        link = jump_link(*where, photo.message_id)
    elif photo.old_link is not None and len(photo.old_link) <= LONGEST_LINK:
        link = photo.old_link  # sent before copies were kept: Discord's link, may be expired
    elif photo.old_link is not None:
        return f" {PHOTO}"
    else:
        return f" {PHOTO} coming"
    shown = PHOTO if photo.old_link is None else f"{PHOTO} old link"
    return f" [{shown}]({link})" if linked else f" {PHOTO}"


def _line(
    line: CardLine, pre_makeups: bool, where: tuple[int, int], style: Style, name: str
) -> str:
    score = f"{line.score:,}" if line.score is not None else ""
    if pre_makeups:
        note = line.note if style.names is None else cut_line(line.note, 2 * style.names + 6)
        text = f"{score} {MARK[line.state]} ({note})"
    else:
        text = f"{name} {score} {MARK[line.state]}".replace("  ", " ")
    waiting = line.state == WAITING
    # a mention: Discord shows the real member, no name can fake it
    if line.by is not None and (style.by_waiting if waiting else style.by_decided):
        text += f" (by <@{line.by}>)"
    if line.photo is not None:
        text += _photo(line.photo, where, style.links_waiting if waiting else style.links_decided)
    if line.state == REJECTED and line.reason and style.reasons:
        text += f" — {cut_line(line.reason, style.reasons)}"
    return text


def _fields(card: CardView, where: tuple[int, int], style: Style) -> list[tuple[str, str]]:
    found = []
    names = short_names([line.player for game in card.games for line in game.lines], style.names)
    for game in card.games:
        label = game.label
        if style.machines is not None and " · " in label:  # "Game 3 · Machine"
            head, _, machine = label.partition(" · ")
            label = f"{head} · {shortened(machine, style.machines)}"
        elif style.machines is not None:  # a pre-makeup card: the machine alone
            label = shortened(label, style.machines)
        lines = [_line(line, card.pre_makeups, where, style, names[line.player])
                 for line in game.lines] or ["–"]  # fmt: skip
        for number, value in enumerate(values(lines, FIELD_LIMIT)):
            found.append((label[:256] if not number else f"{label} (cont.)"[:256], value))
    return found


def _footer(card: CardView, left_out: int = 0) -> str:
    waiting = len(card.waiting)
    text = f"{waiting} waiting for approval" if waiting else "All decided."
    return text + (f" · {left_out} more not shown" if left_out else "")


def _legend(card: CardView) -> str:
    photos = [line.photo for game in card.games for line in game.lines if line.photo]
    old = any(photo.old_link for photo in photos)
    return LEGEND + (PHOTO_LEGEND if photos else "") + (OLD_LEGEND if old else "")


def _total(title: str, fields: list[tuple[str, str]], footer: str) -> int:
    return (size(title) + size(LEGEND + PHOTO_LEGEND + OLD_LEGEND) + size(footer)
            + sum(size(n) + size(v) for n, v in fields))  # fmt: skip


def _embeds(
    title: str, legend: str, fields: list[tuple[str, str]], footer: str
) -> list[discord.Embed]:
    embeds = [discord.Embed(title=title, description=legend)]
    for name, value in fields:
        if len(embeds[-1].fields) == FIELDS:
            embeds.append(discord.Embed())
        embeds[-1].add_field(name=name, value=value, inline=False)
    embeds[-1].set_footer(text=footer)
    return embeds


def card_embeds(card: CardView, guild_id: int, channel_id: int) -> list[discord.Embed]:
    """The card's embeds (one message): in the fullest style that fits Discord's
    limits. Photos link to their posts in the approvals channel `channel_id`."""
    title = card.title[:256]
    where = (guild_id, channel_id)
    fields: list[tuple[str, str]] = []
    for style in STYLES:
        fields = _fields(card, where, style)
        footer = _footer(card)
        if _total(title, fields, footer) <= MESSAGE_LIMIT and len(fields) <= FIELDS * EMBEDS:
            return _embeds(title, _legend(card), fields, footer)
    # More games than any message holds (a pre-makeup day of very many machines):
    # the first ones that fit, and how many more there are; the menus reach them all.
    shown = len(fields)
    while shown and (_total(title, fields[:shown], _footer(card, len(fields) - shown))
                     > MESSAGE_LIMIT or shown > FIELDS * EMBEDS):  # fmt: skip
        shown -= 1
    return _embeds(title, _legend(card), fields[:shown], _footer(card, len(fields) - shown))


def photo_caption(post: PhotoPost) -> str:
    """The text of a photo's post in the approvals channel: whose score, where."""
    view = post.view
    return (f"{PHOTO} {view.player.name} · Game {view.game.number} · {view.game.machine} · "
            f"{view.where}")  # fmt: skip


MENU = 25  # Discord: options in a select menu


def reject_choices(card: CardView, within: str = "") -> list[tuple[str, str]]:
    """The reject menu's options, (label, value), so that every waiting score is
    reachable: the scores themselves when they fit one menu; else the games with
    waiting scores (`g<game>`, picked first); else pages of scores, each ending
    with "More scores…" (`m<offset>`). `within` is what was picked before."""
    if within.startswith("g"):
        game = next((g for g in card.games if g.value == within[1:]), None)
        waiting = [(line, game.label) for line in game.waiting] if game is not None else []
        return _page(waiting, 0)
    waiting = [(line, g.label) for g in card.games for line in g.waiting]
    if within.startswith("m") and within[1:].isdigit():
        return _page(waiting, int(within[1:]))
    if len(waiting) <= MENU:
        return _page(waiting, 0)
    games = [g for g in card.games if g.waiting]
    if len(games) <= MENU:
        return [(f"{g.label} · {len(g.waiting)} waiting"[:100], f"g{g.value}") for g in games]
    return _page(waiting, 0)


def _page(waiting: list[tuple[CardLine, str]], start: int) -> list[tuple[str, str]]:
    if len(waiting) - start <= MENU:
        return [(score_option(line, label), line.value) for line, label in waiting[start:]]
    end = start + MENU - 1
    shown = [(score_option(line, label), line.value) for line, label in waiting[start:end]]
    return [*shown, (f"More scores ({end + 1}–{min(end + MENU - 1, len(waiting))} of "
                     f"{len(waiting)})…", f"m{end}")]  # fmt: skip


def reject_prompt(card: CardView, within: str) -> str:
    """What the clicker reads above the second menu."""
    game = next((g for g in card.games if f"g{g.value}" == within), None)
    if game is not None:
        return f"Which score on {game.label}?"
    return "Which score? (more of the card's waiting scores)"


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
                f"({view.game.machine}), {night_name(view.night)}")  # fmt: skip
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
