"""A group's approval card at its edges: a commissioner's correction shows on
it as theirs (not as a submission by someone else), a card deleted in Discord
with scores waiting is posted again, once, even when that post is refused at
first; and the card's reject menu in its corners (a blank reason, a score no
longer on the card, a menu of more scores than one menu holds)."""

from __future__ import annotations

from typing import Any

import discord

from bot.services import approvals, machine_list, premakeups
from cogs.scorecards import scorecards
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import (
    APPROVALS,
    GUILD,
    FakeBot,
    FakeChannel,
    card_text,
    click,
    submit_modal,
)
from tests.cogs.league_play import lock
from tests.cogs.test_outbox_cog import TONIGHT, Response, league_command, score


class PostsRefused(FakeChannel):
    """The approvals channel refusing new posts (an edit of a message still works)."""

    async def send(self, content: str | None, **kwargs: Any) -> Any:
        raise discord.Forbidden(Response(403), "Missing Permissions")


async def test_r12_a_correction_of_a_missing_score_shows_on_the_card_as_the_commissioners(
    league: FakeBot,
) -> None:
    """P2 sent nothing for game 1; the commissioner enters it: the card shows it
    approved, with no "(by …)" (a submission by someone else than the player)."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [card] = bot.channels[APPROVALS].sent
    assert "P2 –" in card_text(card)
    text = await league_command(bot, "score change", kind="correction", week=1, player="P2",
                                game=1, reason="sent on paper", score="40M")  # fmt: skip
    assert text == "P2, week 1 game 1: none → 40,000,000 (correction)."
    shown = card_text(card)
    assert "P2 40,000,000 ✓\n" in shown and "(by" not in shown


async def test_a_deleted_card_whose_new_post_is_refused_is_posted_once_when_resent(
    league: FakeBot,
) -> None:
    """A moderator deleted the card while P1's score waits; P2's score
    finds it gone and owes it again, but the channel refuses the post. A
    decision meanwhile has no message to edit; once the commissioner resends,
    one card goes out, showing both scores decided."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [deleted] = bot.channels[APPROVALS].sent
    deleted.deleted = True
    refusing = PostsRefused(APPROVALS)
    refusing.sent = bot.channels[APPROVALS].sent
    bot.channels[APPROVALS] = refusing
    await score(bot, 2, 1, "3.0M")
    found = await scorecards.card(bot.db, 1)
    assert found is not None and found.message_id is None  # the gone message is forgotten
    assert await league_command(bot, "night approve-all", group="1") == (
        "Approved 2 score(s) of group 1."
    )
    bot.channels[APPROVALS] = FakeChannel(APPROVALS)
    assert await league_command(bot, "admin resend") == (
        "1 failed post will be sent again. No score, result or audit entry changed."
    )
    [again] = bot.channels[APPROVALS].sent
    assert "P1 4,000,000 ✓" in card_text(again) and "P2 3,000,000 ✓" in card_text(again)


async def test_a_deleted_card_with_a_score_waiting_is_posted_again_and_edited_there(
    league: FakeBot,
) -> None:
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [deleted] = bot.channels[APPROVALS].sent
    deleted.deleted = True
    await score(bot, 2, 1, "3.0M")
    [_, again] = bot.channels[APPROVALS].sent
    assert "P1 4,000,000 ⏳" in card_text(again) and "P2 3,000,000 ⏳" in card_text(again)
    assert deleted.edits == 0
    await league_command(bot, "night approve-all", group="1")
    assert len(bot.channels[APPROVALS].sent) == 2 and again.edits == 1
    assert "All decided." in card_text(again)


async def test_a_blank_reason_is_refused_and_the_score_still_waits(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [card] = bot.channels[APPROVALS].sent
    asked = await click(card.button("Reject a score…"),
                        as_user(bot, COMMISSIONER, TONIGHT, message=card), ["s1"])  # fmt: skip
    said = await submit_modal(asked.modals[0], as_user(bot, COMMISSIONER, TONIGHT), reason="   ")
    assert said.text == "Give a reason; the player is told it."
    assert "P1 4,000,000 ⏳" in card_text(card)


async def test_a_reject_form_for_a_score_sent_again_since_is_refused(league: FakeBot) -> None:
    """Two reject forms were opened on P1's score; one rejected it and P1 sent
    a new one. The other form's score is no longer on the card: refused, and a
    reason the player could not read is refused first, whatever the score."""
    bot = league
    await lock(bot)
    await score(bot, 1, 1, "4.0M")
    [card] = bot.channels[APPROVALS].sent
    forms = [
        (await click(card.button("Reject a score…"),
                     as_user(bot, COMMISSIONER, TONIGHT, message=card), ["s1"])).modals[0]
        for _ in range(3)
    ]  # fmt: skip
    done = await submit_modal(forms[0], as_user(bot, COMMISSIONER, TONIGHT), reason="blurry")
    assert done.text == "Rejected P1's 4,000,000; they are told why."
    found = await approvals.score_approval(bot.db, 1)
    assert found is not None and found.score is not None
    assert found.score.score.decided_by == COMMISSIONER.id  # kept for the exports
    await score(bot, 1, 1, "5.0M")
    stale = await submit_modal(forms[1], as_user(bot, COMMISSIONER, TONIGHT), reason="again")
    assert stale.text == "That score is not on this card."
    unreadable = await submit_modal(forms[2], as_user(bot, COMMISSIONER, TONIGHT),
                                    reason="blur\u202ery")  # fmt: skip
    assert unreadable.text == (
        "The reason has a character in it that turns the text's direction around; type it again."
    )
    assert "P1 5,000,000 ⏳" in card_text(card)


async def test_a_day_card_of_more_pre_makeups_than_a_menu_holds_pages_its_reject_menu(
    league: FakeBot,
) -> None:
    """R3.1: a player owes a pre-makeup on every machine; 26 on one day are more
    than a menu's 25 options: the last option leads to a private menu of the rest."""
    bot = league
    when = at(FIRST_NIGHT, "18:00")
    for n in range(20):
        await machine_list.add_machine(bot.db, GUILD, f"Extra {n + 1:02}", par=10**9, now=when)
    machines = [
        "Attack from Mars", "Medieval Madness", "Twilight Zone", "The Addams Family",
        "Monster Bash", "Theatre of Magic", *(f"Extra {n + 1:02}" for n in range(20)),
    ]  # fmt: skip
    for number, machine in enumerate(machines, start=1):
        await premakeups.submit(bot.db, GUILD, PLAYERS[3].id, machine, number * 1000,
                                [PLAYERS[1].id], now=when)  # fmt: skip
    await bot.outbox.flush()
    [card] = bot.channels[APPROVALS].sent
    menu = card.button("Reject a score…")
    options = [(o.label, o.value) for o in menu.item.options]
    assert len(options) == 25 and options[-1] == ("More scores (25–26 of 26)…", "m24")
    more = await click(menu, as_user(bot, COMMISSIONER, when, message=card), ["m24"])
    [reply] = more.replies
    assert reply.content == "Which score? (more of the card's waiting scores)"
    assert reply.view is not None
    [rest] = reply.view.children
    assert [(o.label, o.value) for o in rest.item.options] == [  # type: ignore[attr-defined]
        ("P3 25,000 · Extra 19", "p25"), ("P3 26,000 · Extra 20", "p26"),
    ]  # fmt: skip
