"""/score, /premakeup and the Approve / Reject buttons."""

from __future__ import annotations

import pytest

from bot.services import approvals, membership, picks
from cogs.scorecards import scorecards
from cogs.scores.scores_cog import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import (
    APPROVALS,
    GUILD,
    FakeBot,
    FakeMember,
    card_text,
    click,
    invoke,
    submit_modal,
)

# How the tests that go over every command invoke these (tests/cogs/examples.py).
EXAMPLES = [
    Example("score", Scores(), "score", {"game": 2, "score": "250M"}),
    Example("premakeup", Scores(), "premakeup",
            {"machine": "Monster Bash", "score": "1M", "with_": PLAYERS[2]}, before_the_lock=True),
]  # fmt: skip

TONIGHT = at(FIRST_NIGHT, "20:00")
COG = Scores()


async def locked(bot: FakeBot) -> FakeBot:
    await picks.lock_picks(bot.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    return bot


async def pending(bot: FakeBot) -> list[tuple[str, int, int]]:
    return [
        (v.player.name, v.game.number, v.score.score)
        for v in await approvals.pending(bot.db, GUILD)
    ]


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("1234567", 1_234_567), ("1,234,567", 1_234_567), ("1.2B", 1_200_000_000),
     ("850M", 850_000_000), ("75k", 75_000)],
)  # fmt: skip
async def test_score_accepts_the_usual_forms_and_posts_for_approval(
    league: FakeBot, typed: str, stored: int
) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=3, score=typed)
    assert said.deferred is True  # acknowledged at once, privately
    assert [r.ephemeral for r in said.replies] == [True]
    assert f"**P1**: {stored:,}" in said.text and "Game 3 · The Addams Family" in said.text
    assert await pending(bot) == [("P1", 3, stored)]
    [posted] = bot.channels[APPROVALS].sent  # the group's card
    text = card_text(posted)
    assert f"P1 {stored:,} ⏳" in text and "Game 3 · The Addams Family" in text
    assert "Week 1 · Group 1" in text and "P2 –" in text  # P2's score is not in yet
    assert [getattr(c.item, "label", None) or c.item.placeholder for c in posted.view.children] == [
        "Approve all complete", "Approve one game…", "Reject a score…"]  # fmt: skip
    card = await scorecards.card(bot.db, 1)
    assert card is not None and card.message_id == posted.id


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("-5", "cannot be negative"),
        ("abc", "'abc' is not a score"),
        ("1e400", "'1e400' is not a score"),
        ("12,34", "'12,34' is not a score"),
        ("１２３", "Use the digits 0-9"),
        ("9" * 40, "40 digits is more than any pinball machine shows"),
        ("", "The score is empty"),
        ("   ", "The score is empty"),
        ("20000000000000", "more than any pinball machine shows"),
    ],
)
async def test_bad_scores_are_refused_privately_and_store_nothing(
    league: FakeBot, typed: str, message: str
) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score=typed)
    assert message in said.text
    assert all(r.ephemeral for r in said.replies) and len(said.replies) == 1
    assert "Traceback" not in said.text
    assert await pending(bot) == []
    assert bot.channels[APPROVALS].sent == []


async def test_score_refusals_name_what_to_do(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="100")
    assert said.text == (
        "Scores open once tonight's games are set: the commissioner locks the picks first."
    )
    await locked(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=7, score="100")
    assert said.text == (
        "Game 7 is not one of your group's games tonight (1 · Medieval Madness, "
        "2 · Twilight Zone, 3 · The Addams Family, 4 · Monster Bash, 5 · Theatre of Magic)."
    )
    # P4 plays in group 2; P1 is in group 1.
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="100",
                        player=PLAYERS[4])  # fmt: skip
    assert said.text == "You can only submit scores for players of your own group (Group 1)."
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[7], TONIGHT), game=1, score="100")
    assert "not a player in this league" in said.text
    # P7 joins after the lock: in next week's groups, not tonight's.
    await membership.add_player(bot.db, GUILD, "P7", discord_id=PLAYERS[7].id, now=TONIGHT)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[7], TONIGHT), game=1, score="100")
    assert said.text == "You are not in a group in week 1."
    assert await pending(bot) == []


async def test_a_group_member_submits_for_another(league: FakeBot) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=2, score="75k",
                        player=PLAYERS[2])  # fmt: skip
    assert "**P2**: 75,000" in said.text
    # A mention of P1's id: Discord shows the real member, which no display name can fake.
    assert f"P2 75,000 ⏳ (by <@{PLAYERS[1].id}>)" in card_text(bot.channels[APPROVALS].sent[-1])


async def test_a_copied_display_name_does_not_hide_who_submitted(league: FakeBot) -> None:
    bot = await locked(league)
    impostor = FakeMember(PLAYERS[1].id, "P2")  # P1, renamed to look like P2
    await invoke(COG.score, COG, as_user(bot, impostor, TONIGHT), game=2, score="75k",
                 player=PLAYERS[2])  # fmt: skip
    posted = card_text(bot.channels[APPROVALS].sent[-1])
    assert f"P2 75,000 ⏳ (by <@{PLAYERS[1].id}>)" in posted
    await invoke(COG.score, COG, as_user(bot, PLAYERS[2], TONIGHT), game=3, score="80k")
    [card] = bot.channels[APPROVALS].sent  # edited in place
    assert "P2 80,000 ⏳\n" in card_text(card) + "\n"  # P2's own: no "by"


async def test_approve_all_complete_approves_only_games_with_every_score_in(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=2, score="2,000")
    [card] = bot.channels[APPROVALS].sent
    button = card.button("Approve all complete")
    refused = await click(button, as_user(bot, PLAYERS[2], TONIGHT, message=card))
    assert refused.text == "Only the commissioner can do that."
    none = await click(button, as_user(bot, COMMISSIONER, TONIGHT, message=card))
    assert none.text.startswith("Nothing approved: no game has all its scores in.")
    for player in (2, 3):
        await invoke(COG.score, COG, as_user(bot, PLAYERS[player], TONIGHT), game=1, score="5")
    [card] = bot.channels[APPROVALS].sent
    done = await click(
        card.button("Approve all complete"), as_user(bot, COMMISSIONER, TONIGHT, message=card)
    )
    assert done.replies[0].ephemeral
    assert done.text == (
        "Approved 3 scores: Game 1 · Medieval Madness. Not complete yet: Game 2 · Twilight Zone."
    )
    assert await pending(bot) == [("P1", 2, 2000)]
    text = card_text(card)
    assert "P1 1,000 ✓" in text and "P1 2,000 ⏳" in text and "1 waiting for approval" in text


async def test_approve_one_game_from_the_menu(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=2, score="2,000")
    [card] = bot.channels[APPROVALS].sent
    menu = card.button("Approve one game…")
    assert [o.label for o in menu.item.options] == ["Approve Game 2 · Twilight Zone"]
    done = await click(menu, as_user(bot, COMMISSIONER, TONIGHT, message=card), values=["2"])
    assert done.text == "Approved 1 score: Game 2 · Twilight Zone."
    assert await pending(bot) == []
    assert card.view is None and "All decided." in card_text(card)  # no buttons left


async def test_reject_with_a_reason_tells_the_player_then_resubmit(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    [card] = bot.channels[APPROVALS].sent
    menu = card.button("Reject a score…")
    [option] = menu.item.options
    assert option.label == "P1 1,000 · Game 1 · Medieval Madness"
    asked = await click(menu, as_user(bot, COMMISSIONER, TONIGHT, message=card), [option.value])
    [modal] = asked.modals  # the first answer to the pick: a modal asking why
    assert asked.replies == [] and modal.title == "Reject a score"
    assert await pending(bot) == [("P1", 1, 1000)]  # nothing decided until it is sent
    done = await submit_modal(modal, as_user(bot, COMMISSIONER, TONIGHT), reason="Photo is blurry")
    assert done.text == "Rejected P1's 1,000; they are told why."
    assert "P1 1,000 ✗ — Photo is blurry" in card_text(card)
    [dm] = bot.dms[PLAYERS[1].id].sent
    assert dm.content == (
        "The commissioner rejected your score of 1,000 on game 1 (Medieval Madness), week 1. "
        "Send it again with /score.\nReason: Photo is blurry"
    )
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="2,000")
    assert "**P1**: 2,000" in said.text
    assert await pending(bot) == [("P1", 1, 2000)]
    assert "P1 2,000 ⏳" in card_text(card) and "blurry" not in card_text(card)


async def test_a_reject_modal_for_a_score_already_decided_changes_nothing(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    [card] = bot.channels[APPROVALS].sent
    menu = card.button("Reject a score…")
    value = menu.item.options[0].value
    asked = await click(menu, as_user(bot, COMMISSIONER, TONIGHT, message=card), [value])
    await click(card.button("Approve one game…"), as_user(bot, COMMISSIONER, TONIGHT), ["1"])
    late = await submit_modal(asked.modals[0], as_user(bot, COMMISSIONER, TONIGHT), reason="x")
    assert late.text == "That score was already approved; nothing changed."
    assert PLAYERS[1].id not in bot.dms
    stranger = await click(menu, as_user(bot, PLAYERS[2], TONIGHT, message=card), [value])
    assert stranger.text == "Only the commissioner can do that." and stranger.modals == []


async def test_game_autocomplete_lists_tonights_games_of_my_group(league: FakeBot) -> None:
    bot = league
    assert await COG.game_choices(as_user(bot, PLAYERS[1], TONIGHT), "") == []  # not locked
    await locked(bot)
    choices = await COG.game_choices(as_user(bot, PLAYERS[1], TONIGHT), "")
    assert [c.name for c in choices] == [
        "Game 1 · Medieval Madness", "Game 2 · Twilight Zone", "Game 3 · The Addams Family",
        "Game 4 · Monster Bash", "Game 5 · Theatre of Magic",
    ]  # fmt: skip
    assert [
        c.value for c in await COG.game_choices(as_user(bot, PLAYERS[1], TONIGHT), "addams")
    ] == [3]


async def test_premakeup_is_approved_like_a_score(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], at(FIRST_NIGHT, "18:00")),
                        machine="Twilight Zone", score="300M", with_=PLAYERS[1])  # fmt: skip
    assert "**P3**: 300,000,000 (with P1)" in said.text
    [card] = bot.channels[APPROVALS].sent  # P3's pre-makeup card of the day
    assert "Pre-makeups · P3 · " in card_text(card)
    assert "300,000,000 ⏳ (with P1)" in card_text(card)
    done = await click(
        card.button("Approve all complete"), as_user(bot, COMMISSIONER, TONIGHT, message=card)
    )
    assert done.text == "Approved 1 score: Twilight Zone."
    assert "300,000,000 ✓ (with P1)" in card_text(card)
    again = await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], TONIGHT),
                         machine="Twilight Zone", score="1", with_=PLAYERS[1])  # fmt: skip
    assert "one per machine." in again.text
    alone = await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], TONIGHT),
                         machine="Monster Bash", score="1", with_=PLAYERS[3])  # fmt: skip
    assert "at least one other league player" in alone.text
