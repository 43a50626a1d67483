"""/me and the playoff field as they read on a phone."""

from __future__ import annotations

from bot.scoring import ARace, NextMultiplier, PlayoffRace
from bot.services.outcomes.standings import PlayerSeason, PlayoffDivision, Stakes
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
    if ps.stakes is not None and reasons:  # what is at stake: for the player themself
        lines[2:2] = stakes_lines(ps.stakes)
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


def stakes_lines(stakes: Stakes) -> list[str]:
    """What the next weeks can still change for the player, in words."""
    lines = []
    if stakes.division:
        lines.append(f"You play in division {stakes.division} for the rest of the season.")
    if stakes.a_race is not None:
        lines.append(a_race_line(stakes.a_race))
    if stakes.playoffs is not None:
        lines.append(playoff_race_line(stakes.playoffs, stakes.division))
    if stakes.multiplier is not None:
        lines.append(multiplier_line(stakes.week, stakes.multiplier))
    return lines


def _weeks(count: int, left: int) -> str:
    """ "next week", "in each of the next 3 weeks", "in 1 of the next 2 weeks"."""
    if left == 1:
        return "next week"
    if count == left:
        return f"in each of the next {left} weeks"
    return f"in {count} of the next {left} weeks"


def a_race_line(race: ARace) -> str:
    """R9.2 in words: what the player still needs to qualify for A."""
    if race.state == "qualified":
        return ("You have qualified for division A (if more qualify than A holds, "
                "the lowest-ranked of them play in B).")  # fmt: skip
    if race.state == "out":
        return ("You can no longer qualify for division A; if too few players qualify, "
                "the best-ranked others join it.")  # fmt: skip
    if race.wins == 0:
        return f"Don't move down {_weeks(race.safe, race.left)} to qualify for division A."
    need = f"Win your group {_weeks(race.wins, race.left)}"
    others = race.safe - race.wins
    if others > 0:
        rest = race.left - race.wins
        them = ("the other" if rest == 1 else f"the other {rest}") if others == rest else (
            f"{others} of the other {rest}")  # fmt: skip
        need += f" and don't move down in {them}"
    return f"{need} to qualify for division A."


def _place(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _points(n: int) -> str:
    return f"{n} point{'' if n == 1 else 's'}"


def playoff_race_line(race: PlayoffRace, division: str) -> str:
    """R13.1 in words: in or out of the playoffs as the standings are now."""
    of = f" of {division}" if division else ""
    if race.place <= race.spots:
        where = f"Playoffs: in as it stands, {_place(race.place)} of {race.spots} spots{of}"
        if race.margin is None:
            return f"{where}."
        if race.margin == 0:
            return f"{where}, level on points with the first player out."
        return f"{where}, {_points(race.margin)} ahead of the first player out."
    behind = race.margin or 0  # always known for a player out
    if behind == 0:
        return f"Playoffs: level on points with the last playoff spot{of}, out on the tie-break."
    return f"Playoffs: {_points(behind)} behind the last playoff spot{of}."


def multiplier_line(week: int, m: NextMultiplier) -> str:
    """R7.4 in words: what week `week` makes next week's multiplier."""
    return (f"After week {week} your bonus multiplier is x{m.win} if you win your group, "
            f"x{m.lose} if you finish last, x{m.stay} otherwise.")  # fmt: skip
