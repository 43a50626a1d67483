"""A bracket match's card (R13.3): one message per match in the announcements
channel, edited in place as its machines are picked and its games played,
with the buttons that play it: the player whose pick it is picks the machine
from a private menu, a commissioner enters both raw scores in a form. A click
on a card out of date, by the wrong member, or forged changes nothing and
says why, privately."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.services import playoff_checkin, playoffs, setup
from bot.services.outcomes.playoffs import PlayoffNightShown
from cogs.playoffs.playoffs_views import GameButton, MachineSelect, PickButton
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    GUILD,
    FakeBot,
    FakeMessage,
    Said,
    click,
    embed_text,
    invoke,
    private_message,
    submit_modal,
)
from tests.cogs.league_play import play_week
from tests.cogs.test_playoff_bracket_cog import COG, THREE, bracket_night, game
from tests.cogs.test_playoff_final_group import NIGHT, SETTING_AT, SIX, posted, start

FOUR = "Attack from Mars, Medieval Madness, Twilight Zone, The Addams Family"


def cards(bot: FakeBot) -> list[FakeMessage]:
    """The match cards posted (a card's embed is titled 'League · Final' and the like)."""
    return [m for m in bot.channels[ANNOUNCEMENTS].sent
            if m.embeds and (m.embeds[0].title or "").startswith("League · ")]  # fmt: skip


def card_of(bot: FakeBot, title: str) -> FakeMessage:
    (found,) = [m for m in bot.channels[ANNOUNCEMENTS].sent
                if m.embeds and m.embeds[0].title == title]  # fmt: skip
    return found


def read(message: FakeMessage) -> str:
    return embed_text(message.embeds[0])


def labels(message: FakeMessage) -> list[str]:
    return [] if message.view is None else [
        getattr(getattr(c, "item", c), "label", "") for c in message.view.children
    ]  # fmt: skip


async def pick(bot: FakeBot, card: FakeMessage, who: discord.Member, machine: str,
               clock: str = "19:40") -> Said:  # fmt: skip
    """The member taps Pick the machine, then picks `machine` in the private menu."""
    offered = await click(card.button("Pick the machine"),
                          as_user(bot, who, at(NIGHT, clock), message=card))  # fmt: skip
    view = offered.replies[-1].view
    if view is None:
        return offered
    menu = view.children[0]
    value = next(o.value for o in getattr(menu, "item", menu).options if o.label == machine)
    return await click(menu, as_user(bot, who, at(NIGHT, clock), message=private_message()),
                       [value])  # fmt: skip


async def enter(bot: FakeBot, card: FakeMessage, high: str, low: str, machine: str | None = None,
                by: discord.Member = COMMISSIONER, clock: str = "20:00") -> Said:  # fmt: skip
    """A commissioner taps Enter a game and fills in the form."""
    opened = await click(card.button("Enter a game"), as_user(bot, by, at(NIGHT, clock),
                                                               message=card))  # fmt: skip
    if opened.modal is None:
        return opened
    values = [high, low] + ([machine or "-"] if len(opened.modal.children) == 3 else [])
    return await submit_modal(opened.modal, as_user(bot, by, at(NIGHT, clock)), values)


async def test_r13_3_a_match_card_is_posted_and_edited_in_place_to_its_winner(
    league: FakeBot,
) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    card = card_of(bot, "League · Final")
    assert read(card).splitlines() == [
        "League · Final", "1. P1 v 2. P4 · best of 3", "Games: P1 0, P4 0",
        "Next: P1 picks game 1's machine.",
    ]  # fmt: skip
    assert labels(card) == ["Pick the machine", "Enter a game"]
    said = await pick(bot, card, PLAYERS[1], "Medieval Madness")
    assert (said.text, said.replies[0].ephemeral) == ("Game 1 of your final: Medieval Madness.",
                                                      True)  # fmt: skip
    assert "Game 1 · Medieval Madness (P1's pick): to play" in read(card)
    opened = await click(card.button("Enter a game"),
                         as_user(bot, COMMISSIONER, at(NIGHT, "20:00"), message=card))  # fmt: skip
    assert opened.modal is not None
    assert [c.text for c in opened.modal.children] == ["P1's score", "P4's score"]
    said = await submit_modal(opened.modal, as_user(bot, COMMISSIONER, at(NIGHT, "20:00")),
                              ["900M", "1.2B"])  # fmt: skip
    assert said.text.startswith("Game 1 of the final recorded.")
    assert said.replies[0].ephemeral
    assert ("Game 1 · Medieval Madness (P1's pick): P1 900,000,000, P4 1,200,000,000 → P4"
            in read(card))  # fmt: skip
    assert "Next: P1 picks game 2's machine." in read(card)  # the loser of game 1
    await enter(bot, card, "500M", "400M", "Attack from Mars")  # no pick yet: named in the form
    assert "Game 2 · Attack from Mars (P1's pick): P1 500,000,000, P4 400,000,000 → P1" in read(
        card
    )
    await pick(bot, card, PLAYERS[4], "Twilight Zone")
    await enter(bot, card, "700M", "800M")
    assert read(card).splitlines()[-1] == "**P4 wins 2–1**"
    assert card.view is None  # decided: no buttons left
    assert len(cards(bot)) == 1 and card.edits >= 4  # one card, edited in place


async def test_r13_3_match_card_refusals_are_private_and_change_nothing(league: FakeBot) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    card = card_of(bot, "League · Final")
    before = read(card)
    for said, why in (
        (await pick(bot, card, PLAYERS[4], "Twilight Zone"),
         "P1 picks game 1's machine (the higher seed picks game 1)."),
        (await pick(bot, card, PLAYERS[2], "Twilight Zone"),
         "P1 picks game 1's machine (the higher seed picks game 1)."),
        (await enter(bot, card, "1B", "2B", by=PLAYERS[1]), None),  # not a commissioner
        (await enter(bot, card, "1B", "1B", "Twilight Zone"),
         "An exact tie is replayed on the same machine: play game 1 again and enter the "
         "replay's scores."),
        (await enter(bot, card, "lots", "1B", "Twilight Zone"), None),
        (await enter(bot, card, "1B", "2B", "Pinbot"), None),
    ):  # fmt: skip
        assert [r.ephemeral for r in said.replies] == [True], said
        if why is not None:
            assert said.text == why
    assert read(card) == before
    # A form opened before a game was recorded, sent after: refused, nothing twice.
    opened = await click(card.button("Enter a game"),
                         as_user(bot, COMMISSIONER, at(NIGHT, "20:00"), message=card))  # fmt: skip
    assert opened.modal is not None
    await enter(bot, card, "1B", "2B", "Twilight Zone")
    late = await submit_modal(opened.modal, as_user(bot, COMMISSIONER, at(NIGHT, "20:01")),
                              ["1B", "2B", "Twilight Zone"])  # fmt: skip
    assert late.text == "Game 1 of this match is recorded already; the card shows it."
    assert read(card).count("→") == 1
    # A menu sent for game 2's pick, picked after the match was decided: refused.
    stale = await click(card.button("Pick the machine"),
                        as_user(bot, PLAYERS[1], at(NIGHT, "20:05"), message=card))  # fmt: skip
    old_button = card.button("Enter a game")
    await enter(bot, card, "1B", "2B", "Attack from Mars")
    assert stale.replies[0].view is not None
    menu = stale.replies[0].view.children[0]
    value = getattr(menu, "item", menu).options[0].value
    said = await click(menu, as_user(bot, PLAYERS[1], at(NIGHT, "20:10"),
                                     message=private_message()), [value])  # fmt: skip
    over = "Playoff night is over; a commissioner corrects a game with /playoffs fix."
    assert said.text == f"That final is decided: P4 won it. {over}"
    assert card.view is None
    # The decided card's button, tapped on a copy from before: refused with why.
    said = await click(old_button, as_user(bot, COMMISSIONER, at(NIGHT, "20:15"), message=card))
    assert said.text == f"That final is decided: P4 won it. {over}"


async def test_r13_3_a_forged_or_unknown_match_card_is_refused(league: FakeBot) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    for item in (PickButton(999), GameButton(999), MachineSelect(999, 1, 1)):
        inner = item.item
        values = None
        if isinstance(inner, discord.ui.Select):
            values = [inner.options[0].value]
        said = await click(item, as_user(bot, COMMISSIONER, at(NIGHT, "20:00"),
                                         message=private_message()), values)  # fmt: skip
        assert said.text == "That match card is not one of this league's."
        assert said.replies[0].ephemeral
    card = card_of(bot, "League · Final")
    await pick(bot, card, PLAYERS[1], "Medieval Madness")
    forged = MachineSelect(1, 1, 1, [discord.SelectOption(label="x", value="99999")])
    said = await click(forged, as_user(bot, PLAYERS[1], at(NIGHT, "20:00"),
                                       message=private_message()), ["99999"])  # fmt: skip
    assert said.text == "That machine is not one of this league's; pick one from the menu."


async def four_player_night(bot: FakeBot) -> list[str]:
    """A season of one night with a bracket of four, best of 3; all checked in.
    The field's names, by seed."""
    for name, value in (("regular_nights", 1), ("playoff_format", "bracket"),
                        ("playoff_max", 4), ("playoff_min", 4)):  # fmt: skip
        await setup.change_setting(bot.db, GUILD, name, value, now=SETTING_AT)
    await play_week(bot, 1, SIX)
    shown = await playoffs.night_shown(bot.db, GUILD)
    assert isinstance(shown, PlayoffNightShown)
    (field,) = (d.qualifiers for d in shown.divisions)
    await playoff_checkin.check_in(bot.db, GUILD, ", ".join(field), now=at(NIGHT, "19:00"))
    return list(field)


async def test_r13_3_semifinal_cards_then_the_final_and_third_once_both_are_decided(
    league: FakeBot,
) -> None:
    bot = league
    s1, s2, s3, s4 = await four_player_night(bot)
    await start(bot, FOUR)
    semi_1, semi_2 = card_of(bot, "League · Semifinal 1"), card_of(bot, "League · Semifinal 2")
    assert f"1. {s1} v 4. {s4} · best of 3" in read(semi_1)
    assert f"2. {s2} v 3. {s3} · best of 3" in read(semi_2)
    await enter(bot, semi_1, "2B", "1B", "Attack from Mars")
    await enter(bot, semi_1, "1B", "2B", "Medieval Madness")  # game 1's loser picks game 2
    await enter(bot, semi_1, "2B", "1B", "Twilight Zone")
    assert f"**{s1} wins 2–1**" in read(semi_1)
    sent = [m.embeds[0].title for m in bot.channels[ANNOUNCEMENTS].sent if m.embeds]
    assert "League · Final" not in sent  # it waits for the other semifinal
    await enter(bot, semi_2, "2B", "1B", "Attack from Mars")
    await enter(bot, semi_2, "2B", "1B", "Medieval Madness")
    final, third = card_of(bot, "League · Final"), card_of(bot, "League · Match for 3rd")
    assert f"1. {s1} v 2. {s2}" in read(final)
    assert f"3. {s3} v 4. {s4}" in read(third)
    order = [m.content.split("\n")[0] or m.embeds[0].title or ""
             for m in bot.channels[ANNOUNCEMENTS].sent]  # fmt: skip
    decided = [i for i, t in enumerate(order) if t.startswith("**League · Semifinal 2**")]
    assert order.index("League · Final") > decided[0]  # the result first, then the next card
    (board,) = [m.embeds[0] for m in bot.channels[ANNOUNCEMENTS].sent
                if m.content.startswith("**League · Semifinal 2**")]  # fmt: skip
    assert board.title == "Playoff bracket · best of 3"
    assert [(f.name, f.value) for f in board.fields] == [("League", "\n".join([
        f"Semifinal 1 · 1. {s1} v 4. {s4}: **{s1}** 2–1",
        f"Semifinal 2 · 2. {s2} v 3. {s3}: **{s2}** 2–0",
        f"Final · 1. {s1} v 2. {s2}: to play",
        f"Match for 3rd · 3. {s3} v 4. {s4}: to play",
    ]))]  # fmt: skip


async def test_r13_3_a_match_card_deleted_while_its_match_is_open_is_posted_again(
    league: FakeBot,
) -> None:
    bot = await bracket_night(league)
    await start(bot, THREE)
    first = card_of(bot, "League · Final")
    first.deleted = True  # someone deleted it in Discord
    said = await invoke(COG.pick, COG, as_user(bot, PLAYERS[1], at(NIGHT, "19:40")),
                        machine="Medieval Madness")  # fmt: skip
    assert said.text == "Game 1 of your final: Medieval Madness."
    again = [m for m in cards(bot) if not m.deleted]
    assert len(again) == 1 and again[0] is not first
    assert "Game 1 · Medieval Madness (P1's pick): to play" in read(again[0])
    assert labels(again[0]) == ["Pick the machine", "Enter a game"]
    await enter(bot, again[0], "1B", "2B")
    assert "→ P4" in read(again[0])  # later edits go to the new message
    again[0].deleted = True
    said = await game(bot, "P4", "2.5B", "1B", "Attack from Mars")  # decided: P4 wins 2–0
    assert said.text.startswith("Game 2 of the final recorded.")
    assert [m for m in cards(bot) if not m.deleted] == []  # a decided match's card is not
    assert posted(bot, "**Playoffs · League champion: P4**")  # posted again


async def test_r12_r13_3_a_form_opened_before_a_correction_changed_the_match_records_nothing(
    league: FakeBot,
) -> None:
    """The final's form names its two players; a correction of a semifinal then
    makes another player the finalist: the old form, sent, records nothing."""
    bot = league
    s1, s2, s3, _ = await four_player_night(bot)
    await start(bot, FOUR)
    semi_1, semi_2 = card_of(bot, "League · Semifinal 1"), card_of(bot, "League · Semifinal 2")
    await enter(bot, semi_1, "2B", "1B", "Attack from Mars")
    await enter(bot, semi_1, "2.1B", "1B", "Medieval Madness")
    await enter(bot, semi_2, "2B", "1B", "Attack from Mars")
    await enter(bot, semi_2, "1B", "2B", "Medieval Madness")
    await enter(bot, semi_2, "2.2B", "1B", "Twilight Zone")  # s2 wins 2–1
    final = card_of(bot, "League · Final")
    opened = await click(final.button("Enter a game"),
                         as_user(bot, COMMISSIONER, at(NIGHT, "20:30"), message=final))  # fmt: skip
    assert opened.modal is not None and opened.modal.title == "Final · Game 1"
    assert [c.text for c in opened.modal.children][:2] == [f"{s1}'s score", f"{s2}'s score"]
    fixed = await invoke(COG.fix, COG, as_user(bot, COMMISSIONER, at(NIGHT, "20:31")),
                         player=s3, round=app_commands.Choice(name="Semifinal", value="semifinal"),
                         game=3, score="3B", opponent_score="2.2B", reason="misread")  # fmt: skip
    assert fixed.text.startswith("Game 3 of the semifinal corrected."), fixed.text
    assert f"1. {s1} v 3. {s3}" in read(final)  # the same card, edited
    late = await submit_modal(opened.modal, as_user(bot, COMMISSIONER, at(NIGHT, "20:32")),
                              ["1B", "2B", "Twilight Zone"])  # fmt: skip
    assert late.text.startswith("A correction changed who plays this match since the form")
    assert "→" not in read(final)
