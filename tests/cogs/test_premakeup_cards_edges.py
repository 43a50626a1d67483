"""A player's pre-makeup day card (R3.1): every machine of the day on one card
with who was there, the commissioner's decisions from it (each machine its own
choice in the menus), the player told of a rejection and only of a rejection,
and a pre-makeup's old post from before the cards edited as it is decided on
the card, naming who decided."""

from __future__ import annotations

from bot.components.approvals import DecisionButton
from bot.services import approvals, outbox
from cogs.scores import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    APPROVALS,
    COMMISSIONER_ROLE,
    GUILD,
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
TZ = "Pre-makeup · Twilight Zone\n**P3**: 300,000,000 (with P1, P2)\n"
MB = "Pre-makeup · Monster Bash\n**P3**: 50,000,000 (with P1)\n"
# P6 holds the commissioner role as well as playing: their decisions name them.
P6_COMMISSIONER = FakeMember(PLAYERS[6].id, "P6", [FakeRole(COMMISSIONER_ROLE)])


async def premakeup(bot: FakeBot, machine: str, score: str, **present: object) -> None:
    await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], BEFORE),
                 machine=machine, score=score, **present)  # fmt: skip


async def day_with_old_posts(bot: FakeBot) -> tuple[FakeMessage, FakeMessage, FakeMessage]:
    """P3's pre-makeups on Twilight Zone (with P1 and P2) and Monster Bash (with
    P1), on one day card; and each one's approval post as the bot owed it before
    the cards, sent now."""
    await premakeup(bot, "Twilight Zone", "300M", with_=PLAYERS[1], also=PLAYERS[2])
    await premakeup(bot, "Monster Bash", "50M", with_=PLAYERS[1])
    async with bot.db.transaction() as conn:
        for ref in ("premakeup:1", "premakeup:2"):
            await outbox.owe_approval(conn, GUILD, ref, now=BEFORE)
    await bot.outbox.flush()
    card, first, second = bot.channels[APPROVALS].sent
    return card, first, second


async def test_r3_1_a_day_card_decided_machine_by_machine_edits_each_old_post(
    league: FakeBot,
) -> None:
    """R3.1: P3's day card lists each machine with who was there; the
    commissioner rejects one (P3 is told why) and approves the other, each
    from its own choice in the menus, and each old post says who decided.
    A reject form opened before the approval changes nothing after it."""
    bot = league
    card, first, second = await day_with_old_posts(bot)
    assert card_text(card) == (
        "Pre-makeups · P3 · 7 January\n✓ approved · ⏳ waiting · ✗ rejected · – not in yet\n"
        "Twilight Zone\n300,000,000 ⏳ (with P1, P2)\nMonster Bash\n50,000,000 ⏳ (with P1)\n"
        "2 waiting for approval"
    )
    assert first.content == TZ + "Waiting for the commissioner."
    assert second.content == MB + "Waiting for the commissioner."
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
    assert first.content == TZ + f"Rejected by <@{COMMISSIONER.id}>."
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
    assert second.content == MB + "Approved by P6."
    assert len(bot.dms[PLAYERS[3].id].sent) == 1  # an approval tells the player nothing
    stale = await submit_modal(late.modals[0], as_user(bot, COMMISSIONER, BEFORE), reason="x")
    assert stale.text == "That pre-makeup score was already approved."
    assert len(bot.dms[PLAYERS[3].id].sent) == 1


async def test_an_old_posts_button_keeps_who_decided(league: FakeBot) -> None:
    """A click on an old post's own button answers by editing that post, and
    records the commissioner as the one who decided (the exports name them)."""
    bot = league
    _, first, _ = await day_with_old_posts(bot)
    clicked = await click(first.button("Approve"), as_user(bot, COMMISSIONER, BEFORE))
    assert clicked.edited == [TZ + "Approved by Koi."]
    assert first.edits == 0  # the click's own answer edits it: no edit owed besides
    found = await approvals.pre_makeup_approval(bot.db, 1)
    assert found is not None and found.decider_id == COMMISSIONER.id


async def test_a_button_for_a_pre_makeup_that_does_not_exist_says_so(league: FakeBot) -> None:
    """A forged (or far too old) button naming no pre-makeup of this season."""
    bot = league
    button = DecisionButton("premakeup", "approve", 99)
    said = await click(button, as_user(bot, COMMISSIONER, BEFORE))
    assert said.text == "That pre-makeup score does not exist in this season."
