"""/score, /premakeup and the Approve / Reject buttons."""

from __future__ import annotations

import pytest

from bot.services import picks, scores
from cogs.scores import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, FakeMember, click, invoke

TONIGHT = at(FIRST_NIGHT, "20:00")
COG = Scores()


async def locked(bot: FakeBot) -> FakeBot:
    await picks.lock_picks(bot.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    return bot


async def pending(bot: FakeBot) -> list[tuple[str, int, int]]:
    return [
        (v.player.name, v.game.number, v.score.score) for v in await scores.pending(bot.db, GUILD)
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
    posted = bot.channels[APPROVALS].sent[-1]
    assert "Waiting for the commissioner" in posted.content
    assert [c.item.label for c in posted.view.children] == ["Approve", "Reject"]
    view = (await scores.pending(bot.db, GUILD))[0]
    assert view.score.approval_message_id == posted.id


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
    assert "the commissioner locks the picks first" in said.text
    await locked(bot)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=7, score="100")
    assert "Game 7 is not one of your group's games tonight (1 · Medieval Madness" in said.text
    # P4 plays in group 2; P1 is in group 1.
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="100",
                        player=PLAYERS[4])  # fmt: skip
    assert "only submit scores for players of your own group (Group 1)" in said.text
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[7], TONIGHT), game=1, score="100")
    assert "not a player in this league" in said.text
    assert await pending(bot) == []


async def test_a_group_member_submits_for_another(league: FakeBot) -> None:
    bot = await locked(league)
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=2, score="75k",
                        player=PLAYERS[2])  # fmt: skip
    assert "**P2**: 75,000" in said.text
    # A mention of P1's id: Discord shows the real member, which no display name can fake.
    assert f"(submitted by <@{PLAYERS[1].id}>)" in bot.channels[APPROVALS].sent[-1].content


async def test_a_copied_display_name_does_not_hide_who_submitted(league: FakeBot) -> None:
    bot = await locked(league)
    impostor = FakeMember(PLAYERS[1].id, "P2")  # P1, renamed to look like P2
    await invoke(COG.score, COG, as_user(bot, impostor, TONIGHT), game=2, score="75k",
                 player=PLAYERS[2])  # fmt: skip
    posted = bot.channels[APPROVALS].sent[-1].content
    assert "**P2**: 75,000" in posted and f"(submitted by <@{PLAYERS[1].id}>)" in posted
    await invoke(COG.score, COG, as_user(bot, PLAYERS[2], TONIGHT), game=3, score="80k")
    assert "submitted by" not in bot.channels[APPROVALS].sent[-1].content  # P2's own


async def test_approve_button_round_trips_and_checks_the_role(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    message = bot.channels[APPROVALS].sent[-1]
    approve = message.button("Approve")
    assert approve.custom_id == f"score:approve:{(await scores.pending(bot.db, GUILD))[0].score.id}"

    refused = await click(approve, as_user(bot, PLAYERS[2], TONIGHT, message=message))
    assert refused.text == "Only the commissioner can do that."
    assert refused.replies[0].ephemeral and refused.edited == []
    assert await pending(bot) == [("P1", 1, 1000)]

    done = await click(approve, as_user(bot, COMMISSIONER, TONIGHT, message=message))
    assert done.edited and done.edited[0].endswith("Approved by Koi.")
    assert await pending(bot) == []
    again = await click(
        message.button("Reject"), as_user(bot, COMMISSIONER, TONIGHT, message=message)
    )
    assert again.text == "That score was already approved; nothing changed."
    assert again.edited == []


async def test_reject_then_resubmit(league: FakeBot) -> None:
    bot = await locked(league)
    await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="1,000")
    message = bot.channels[APPROVALS].sent[-1]
    done = await click(
        message.button("Reject"), as_user(bot, COMMISSIONER, TONIGHT, message=message)
    )
    assert done.edited[0].endswith("Rejected by Koi.")
    said = await invoke(COG.score, COG, as_user(bot, PLAYERS[1], TONIGHT), game=1, score="2,000")
    assert "**P1**: 2,000" in said.text
    assert await pending(bot) == [("P1", 1, 2000)]


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
    message = bot.channels[APPROVALS].sent[-1]
    done = await click(
        message.button("Approve"), as_user(bot, COMMISSIONER, TONIGHT, message=message)
    )
    assert (
        done.edited[0]
        == "Pre-makeup · Twilight Zone\n**P3**: 300,000,000 (with P1)\nApproved by Koi."
    )
    again = await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], TONIGHT),
                         machine="Twilight Zone", score="1", with_=PLAYERS[1])  # fmt: skip
    assert "one per machine." in again.text
    alone = await invoke(COG.premakeup, COG, as_user(bot, PLAYERS[3], TONIGHT),
                         machine="Monster Bash", score="1", with_=PLAYERS[3])  # fmt: skip
    assert "at least one other league player" in alone.text
