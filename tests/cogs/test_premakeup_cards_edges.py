"""A player's pre-makeup day card (R3.1): every machine of the day on one card
with who was there, the commissioner's decisions from it (each machine its own
choice in the menus), the player told of a rejection and only of a rejection,
and who decided kept for the exports."""

from __future__ import annotations

from bot.services import approvals
from cogs.scorecards.scorecards_views import RejectModal
from cogs.scores.scores_cog import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    APPROVALS,
    COMMISSIONER_ROLE,
    FakeBot,
    FakeMember,
    FakeMessage,
    FakeRole,
    card_text,
    click,
    invoke,
    submit_modal,
)

COG = Scores()
BEFORE = at(FIRST_NIGHT, "18:00")
# P6 holds the commissioner role as well as playing: their decisions name them.
P6_COMMISSIONER = FakeMember(PLAYERS[6].id, "P6", [FakeRole(COMMISSIONER_ROLE)])


async def premakeup(bot: FakeBot, machine: str, score: str, **present: object) -> None:
    await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], BEFORE),
                 machine=machine, score=score, **present)  # fmt: skip


async def day_card(bot: FakeBot) -> FakeMessage:
    """P3's pre-makeups on Twilight Zone (with P1 and P2) and Monster Bash (with
    P1), on one day card."""
    await premakeup(bot, "Twilight Zone", "300M", with_=PLAYERS[1], also=PLAYERS[2])
    await premakeup(bot, "Monster Bash", "50M", with_=PLAYERS[1])
    await bot.outbox.flush()
    [card] = bot.channels[APPROVALS].sent
    return card


async def test_r3_1_a_day_card_decided_machine_by_machine(league: FakeBot) -> None:
    """R3.1: P3's day card lists each machine with who was there; the
    commissioner rejects one (P3 is told why) and approves the other, each
    from its own choice in the menus, and the card says how each was decided.
    A reject form opened before the approval changes nothing after it."""
    bot = league
    card = await day_card(bot)
    assert card_text(card) == (
        "Pre-makeups · P3 · 7 January\n✓ approved · ⏳ waiting · ✗ rejected · – not in yet\n"
        "Twilight Zone\n300,000,000 ⏳ (with P1, P2)\nMonster Bash\n50,000,000 ⏳ (with P1)\n"
        "2 waiting for approval"
    )
    # Koi (not a player) rejects Twilight Zone with a reason.
    menu = card.button("Reject a score…")
    assert [(o.label, o.value) for o in menu.item.options] == [
        ("P3 300,000,000 · Twilight Zone", "p1"), ("P3 50,000,000 · Monster Bash", "p2"),
    ]  # fmt: skip
    asked = await click(menu, as_user(bot, COMMISSIONER, BEFORE, message=card), ["p1"])
    done = await submit_modal(asked.modals[0], as_user(bot, COMMISSIONER, BEFORE),
                              reason="P2 was not there")  # fmt: skip
    assert done.text == "Rejected P3's 300,000,000; they are told why."
    [dm] = bot.dms[PLAYERS[3].id].sent
    assert dm.content == (
        "The commissioner rejected your pre-makeup score of 300,000,000 on Twilight Zone. "
        "Send it again with /premakeup.\nReason: P2 was not there"
    )
    assert "300,000,000 ✗ (with P1, P2) — P2 was not there" in card_text(card)
    # A second reject form, opened on Monster Bash before it is approved.
    late = await click(card.button("Reject a score…"),
                       as_user(bot, COMMISSIONER, BEFORE, message=card), ["p2"])  # fmt: skip
    # P6, a player with the commissioner role, approves Monster Bash: the second
    # machine's own choice in the menu approves that machine, not the first.
    games = card.button("Approve one game…")
    assert [(o.label, o.value) for o in games.item.options] == [("Approve Monster Bash", "2")]
    approved = await click(games, as_user(bot, P6_COMMISSIONER, BEFORE, message=card), ["2"])
    assert approved.text == "Approved 1 score: Monster Bash."
    assert "50,000,000 ✓ (with P1)" in card_text(card) and "All decided." in card_text(card)
    assert len(bot.dms[PLAYERS[3].id].sent) == 1  # an approval tells the player nothing
    stale = await submit_modal(late.modals[0], as_user(bot, COMMISSIONER, BEFORE), reason="x")
    assert stale.text == "That pre-makeup score was already approved."
    assert len(bot.dms[PLAYERS[3].id].sent) == 1


async def test_the_day_card_keeps_who_decided(league: FakeBot) -> None:
    """An approval from the card records the commissioner who clicked (the
    exports name them)."""
    bot = league
    card = await day_card(bot)
    games = card.button("Approve one game…")
    clicked = await click(games, as_user(bot, COMMISSIONER, BEFORE, message=card), ["1"])
    assert clicked.text == "Approved 1 score: Twilight Zone."
    found = await approvals.pre_makeup_approval(bot.db, 1)
    assert found is not None and found.pre_makeup is not None
    assert found.pre_makeup.pre_makeup.decided_by == COMMISSIONER.id


async def test_a_reject_form_naming_a_pre_makeup_not_on_the_card_says_so(
    league: FakeBot,
) -> None:
    """A reject form naming a pre-makeup that is not on the card (the form
    outlived a restore of an older backup) decides nothing and says so."""
    bot = league
    card = await day_card(bot)
    [card_id] = {int(c.custom_id.split(":")[-1]) for c in card.view.children}  # type: ignore[union-attr]  # the card has its menus
    done = await submit_modal(RejectModal(card_id, "p99"), as_user(bot, COMMISSIONER, BEFORE),
                              reason="x")  # fmt: skip
    assert done.text == "That score is not on this card."
    assert "2 waiting for approval" in card_text(card)
