"""Statistics, the season summary and a new season's roster: short
lines that read on a phone, names not ids, rules named in words."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from bot.rules.exact import shown
from bot.ui.playoffs import standing_line
from cogs.money.money_text import dollars, place

if TYPE_CHECKING:
    from cogs.stats.stats_outcomes import (
        MachineView,
        PlayerStatsView,
        RosterChange,
        SeasonSummary,
    )

RECORDS_SHOWN = 10


def _average(value: Fraction | None) -> str:
    return "–" if value is None else f"{float(value):.2f}"


def _division(division: str) -> str:
    return f"Division {division}" if division else "League"


def player_stats(view: PlayerStatsView) -> str:
    s = view.stats
    lines = [
        f"**{s.player}** · {view.season}",
        f"Nights played {s.nights} · group wins {s.group_wins}",
        f"Game points: {_average(s.average_points)} a game over {s.games} games",
        f"Moved up {s.moves_up} · moved down {s.moves_down}",
    ]
    if view.playoffs is not None:
        lines.append(standing_line(view.playoffs))
    if s.machines:
        lines.append("**Machines** (best · average normalized)")
        lines.extend(
            f"{m.machine}: {m.best:,} · {shown(m.average_normalized):,}" for m in s.machines
        )
    if s.records:
        lines.append("**Against** (won–lost–tied games)")
        lines.extend(
            f"{other}: {r.wins}–{r.losses}–{r.ties}" for other, r in s.records[:RECORDS_SHOWN]
        )
        if len(s.records) > RECORDS_SHOWN:
            lines.append(f"…and {len(s.records) - RECORDS_SHOWN} more opponents")
    if not s.nights and not s.games:
        lines.append("No finalized nights yet.")
    return "\n".join(lines)


def machine_stats(view: MachineView) -> str:
    s = view.stats
    if view.par is None:
        par = "Par: not set yet"
    elif view.par_set:
        par = f"Par: {view.par:,}"
    else:
        par = f"Par: {view.par:,} (median of pre-makeups)"
    average = "–" if s.average is None else f"{shown(s.average):,}"
    lines = [
        f"**{s.machine}** · {view.season}",
        par,
        f"Played {s.games} times · average {average}",
        f"Vetoed {s.vetoed} · repeated {s.repeated}",
    ]
    if s.high_scores:
        lines.append("**High scores**")
        lines.extend(
            f"{n}. {h.player} {h.score:,} · week {h.week}, {h.day:%d %b}"
            for n, h in enumerate(s.high_scores, start=1)
        )
    else:
        lines.append("No scores on it yet.")
    return "\n".join(lines)


def season_summary(summary: SeasonSummary) -> str:
    over = "the season is over" if summary.by_playoffs else "the regular season is over"
    if summary.closed_after is not None:  # R13.6: closed without playoffs
        over = "the season is closed"
    lines = [f"**{summary.season}: {over}**"]
    if summary.closed_after is not None:
        lines.append(f"Closed after week {summary.closed_after}, without playoffs: the "
                     "champions and the prizes go by the standings.")  # fmt: skip
    for division, player in summary.champions.items():
        if summary.playoffs_to_come:  # R13.6: the playoffs decide the champion
            lines.append(f"{_division(division)} regular-season leader: {player} (the playoffs "
                         "decide the champion)")  # fmt: skip
        else:
            won = " (won the playoffs)" if summary.by_playoffs else ""
            won = " (by standings)" if summary.closed_after is not None else won
            lines.append(f"🏆 {_division(division)} champion: {player}{won}")
    lines.append(
        f"Prize fund {dollars(summary.fund_cents)} · "
        f"weekly payouts {dollars(summary.weekly_payouts_cents)}"
    )
    for division, shares in summary.prizes.items():
        if shares:
            paid = ", ".join(f"{place(x.place)} {x.player} {dollars(x.cents)}" for x in shares)
            lines.append(f"{_division(division)} prizes: {paid}")
    if summary.most_improved is not None:
        i = summary.most_improved
        lines.append(
            f"Most improved: {i.player} (average normalized score "
            f"{shown(i.before):,} → {shown(i.after):,})"
        )
    if summary.high_scores:
        lines.append("**High scores**")
        lines.extend(
            f"{machine}: {h.player} {h.score:,} (week {h.week})"
            for machine, h in summary.high_scores
        )
    return "\n".join(lines)


def roster_change(change: RosterChange) -> str:
    """What a new season's start adds about its players; '' for the first season."""
    if change.previous is None:
        return ""
    new = ", ".join(change.new) or "nobody"
    gone = ", ".join(change.gone) or "nobody"
    return f"New since {change.previous}: {new}. Not back: {gone}."
