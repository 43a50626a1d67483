"""/me and the playoff field as they read on a phone."""

from __future__ import annotations

from bot.services.outcomes.standings import PlayerSeason, PlayoffDivision
from bot.ui.playoffs import field_lines, standing_line
from bot.ui.render import money

SCORE_STATES = {"pending": "waiting for the commissioner", "approved": "approved",
                "rejected": "rejected"}  # fmt: skip


def player_season(ps: PlayerSeason, *, reasons: bool = True) -> str:
    """/me. `reasons`: a rejected score's reason, for the player themself only."""
    season = f" · {ps.past}" if ps.past else ""
    lines = [
        f"**{ps.player.name}**{season} · rank {ps.rank} · {ps.league_points} league points "
        f"over {ps.nights} night(s)",
        f"Bonus multiplier for the next night: x{ps.multiplier}",
        f"Pre-makeup nights used {ps.pre_makeup_nights_used}, left {ps.pre_makeup_nights_left}",
        f"Dues paid {money(ps.dues_paid_cents)}, owed {money(ps.dues_owed_cents)}",
    ]
    if ps.past:  # a season over: no next night, no pre-makeups left to use
        lines[1:3] = [f"Pre-makeup nights used {ps.pre_makeup_nights_used}"]
    if ps.playoffs is not None:
        lines.insert(1, standing_line(ps.playoffs))
    for week_no, mp, points, result in ps.weeks:
        lines.append(f"- Week {week_no}: {mp} MP, {points} league points, {result}")
    if ps.tonight:
        lines.append("Tonight's scores:")
        for t in ps.tonight:
            state = SCORE_STATES[t.status] + (f": {t.reason}" if t.reason and reasons else "")
            lines.append(f"- Game {t.game} · {t.machine}: {t.score:,} · {state}")
    return "\n".join(lines)


def playoffs(field: list[PlayoffDivision]) -> str:
    return "\n".join(["**Playoffs**", *field_lines(field)])
