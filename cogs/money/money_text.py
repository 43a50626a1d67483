"""Money messages: the season prize shares (R10.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cogs.money.money_outcomes import DuesRecorded, MoneySummary, SeasonPrizes

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def dollars(cents: int) -> str:
    """Cents as dollars, exactly: 1234 is $12.34."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def place(number: int) -> str:
    if number == 0:
        return "Consolation"
    return ORDINALS.get(number, f"{number}th")


def season_prizes(prizes: SeasonPrizes) -> str:
    """Each division's prize winners and their shares; a few short lines."""
    basis = "final standings" if prizes.final else "standings so far"
    if prizes.by_playoffs:
        basis = "playoff places, then standings"
    lines = [f"**Season prizes** · fund {dollars(prizes.fund_cents)}, by {basis}"]
    for division, shares in prizes.divisions.items():
        if not shares:
            continue
        lines.append(f"**Division {division}**" if division else "**League**")
        lines.extend(f"  {place(s.place)}: {s.player} {dollars(s.cents)}" for s in shares)
    if len(lines) == 1:
        lines.append("Nobody is placed yet.")
    return "\n".join(lines)


def dues_recorded(done: DuesRecorded) -> str:
    """Who paid what, and the week's pot after it."""
    pot = done.pot
    paid = ", ".join(f"{name} {dollars(cents)}" for name, cents in done.paid)
    again = "\nThe week was final: its payout was recomputed." if pot.recomputed else ""
    return (
        f"Week {pot.week}: dues {dollars(pot.dues_cents)}, pot {dollars(pot.pot_cents)}.\n"
        f"Paid: {paid}.{again}"
    )


def money_summary(money: MoneySummary) -> str:
    """The week's pot, the season fund, and one short line per player (owing first);
    long lists are split into several messages by `respond`."""
    lines = [
        f"**Money · week {money.week}**",
        f"Pot {dollars(money.pot_cents)} · season fund {dollars(money.fund_cents)}",
    ]
    lines.extend(
        f"{p.name}: paid {dollars(p.paid_cents)}"
        + (f", owes {dollars(p.owed_cents)}" if p.owed_cents else "")
        for p in money.players
    )
    if not money.players:
        lines.append("No players yet.")
    return "\n".join(lines)
