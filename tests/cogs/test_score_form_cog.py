"""/score-form: several scores in one Discord form, through real
discord.ui.Modal and TextInput objects, the real services and a real SQLite file."""

from __future__ import annotations

import discord

from bot.services import attendance, membership, scores, setup
from cogs.scores.scores_form_cog import ScoreForm, ScoreFormCommand
from tests.cogs.conftest import PLAYERS, as_user
from tests.cogs.examples import Example
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, card_text, invoke, submit_modal
from tests.cogs.league_play import snapshot
from tests.cogs.test_scores_cog import TONIGHT, locked, pending
from tests.moments import SETTING_AT

# How the tests that go over every command invoke it (tests/cogs/examples.py): a
# modal must be the first answer, so what the form shows is read first.
EXAMPLES = [Example("score-form", ScoreFormCommand(), "score_form", reads_first=["read"])]

COG = ScoreFormCommand()


async def open_form(bot: FakeBot, player: int, game: int | None = None) -> ScoreForm:
    said = await invoke(COG.score_form, COG, as_user(bot, PLAYERS[player], TONIGHT), game=game)
    assert said.replies == [] and said.deferred is None, said.text  # the form is the answer
    assert isinstance(said.modal, ScoreForm)
    return said.modal


def labels(form: ScoreForm) -> list[str]:
    return [label.text for label in form.children if isinstance(label, discord.ui.Label)]


async def test_my_form_has_my_remaining_games_and_stores_what_is_filled(league: FakeBot) -> None:
    bot = await locked(league)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 2, 5_000, now=TONIGHT)
    form = await open_form(bot, 1)
    games = [g for g in await scores.my_games(bot.db, GUILD, PLAYERS[1].id) if g.number != 2]
    assert labels(form) == [f"Game {g.number} · {g.machine}" for g in games]
    said = await submit_modal(
        form, as_user(bot, PLAYERS[1], TONIGHT), ["1,234,567", "", "850M", "1.2B"]
    )
    assert said.deferred is True and all(r.ephemeral for r in said.replies)
    assert sorted(await pending(bot)) == sorted(
        [("P1", 2, 5_000), ("P1", 1, 1_234_567), ("P1", 4, 850_000_000), ("P1", 5, 1_200_000_000)]
    )
    assert "**P1**: 850,000,000" in said.text
    [card] = bot.channels[APPROVALS].sent  # the group's one card, not a post per score
    assert card_text(card).endswith("4 waiting for approval")


async def test_a_scorekeeper_form_has_a_field_per_group_member_without_a_score(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    await scores.submit(bot.db, GUILD, PLAYERS[2].id, 3, 7_000, now=TONIGHT)
    form = await open_form(bot, 1, game=3)
    assert labels(form) == ["P1", "P3"]
    assert form.title.startswith("Game 3 · ")
    await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), ["100", "200"])
    assert sorted(await pending(bot)) == [("P1", 3, 100), ("P2", 3, 7_000), ("P3", 3, 200)]


async def test_one_bad_field_refuses_the_whole_form_naming_it_and_stores_nothing(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    form = await open_form(bot, 1)
    before = await snapshot(bot)
    values = ["100", "12x", "", "", ""]
    said = await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), values)
    assert f"{labels(form)[1]}: '12x' is not a score" in said.text
    assert "Nothing was stored" in said.text and all(r.ephemeral for r in said.replies)
    assert await snapshot(bot) == before


async def test_a_field_the_service_refuses_refuses_the_form_and_stores_nothing(
    league: FakeBot,
) -> None:
    """A score entered elsewhere after the form opened: the same check as /score."""
    bot = await locked(league)
    form = await open_form(bot, 1, game=1)  # P1, P2, P3
    await scores.submit(bot.db, GUILD, PLAYERS[3].id, 1, 9, now=TONIGHT)
    before = await snapshot(bot)
    said = await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), ["100", "200", "300"])
    assert "P3: P3 already has a score on game 1 waiting for approval" in said.text
    assert await snapshot(bot) == before
    assert await pending(bot) == [("P3", 1, 9)]


async def test_an_all_blank_form_stores_nothing(league: FakeBot) -> None:
    bot = await locked(league)
    form = await open_form(bot, 1)
    before = await snapshot(bot)
    said = await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), [""] * len(form.inputs))
    assert "Every field was blank" in said.text
    assert await snapshot(bot) == before


async def test_refusals_when_there_is_nothing_to_enter(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.score_form, COG, as_user(bot, PLAYERS[1], TONIGHT), game=None)
    assert "the commissioner locks the picks first" in said.text and said.modal is None
    await locked(bot)
    for game in range(1, 6):
        await scores.submit(bot.db, GUILD, PLAYERS[1].id, game, 5, now=TONIGHT)
    said = await invoke(COG.score_form, COG, as_user(bot, PLAYERS[1], TONIGHT), game=None)
    assert "You have a score on every game of week 1" in said.text and said.modal is None
    await membership.add_player(bot.db, GUILD, "P7", discord_id=PLAYERS[7].id, now=TONIGHT)
    said = await invoke(COG.score_form, COG, as_user(bot, PLAYERS[7], TONIGHT), game=None)
    assert "You are not in a group in week 1" in said.text and said.modal is None


async def test_an_absent_member_gets_no_field_on_the_scorekeeper_form(league: FakeBot) -> None:
    bot = league
    await locked(bot)
    await attendance.notify(bot.db, GUILD, PLAYERS[3].id, "absent", now=TONIGHT)
    form = await open_form(bot, 1, game=1)
    assert "P3" not in labels(form)


async def test_photo_required_refuses_the_form_and_says_use_score_photo(league: FakeBot) -> None:
    bot = await locked(league)
    await setup.change_setting(bot.db, GUILD, "photo_required", "yes", now=SETTING_AT)
    said = await invoke(COG.score_form, COG, as_user(bot, PLAYERS[1], TONIGHT), game=None)
    assert "/score photo:" in said.text and said.modal is None


async def test_the_form_fits_discords_modal_limits(league: FakeBot) -> None:
    long = scores.FormField("Game 1 · " + "Very Long Machine Name " * 5, 1, 1)
    form = ScoreForm("Game 1 · " + "Very Long Machine Name " * 5, [long] * 7)
    data = form.to_dict()
    assert len(data["title"]) <= 45
    assert 1 <= len(data["components"]) <= 5
    for label in data["components"]:
        box = label["component"]
        assert label["type"] == 18 and 1 <= len(label["label"]) <= 45
        assert box["type"] == 4 and len(box.get("placeholder", "")) <= 100
        assert box.get("max_length", 4000) <= 4000 and len(box["custom_id"]) <= 100


async def test_a_form_submitted_after_photos_became_required_stores_nothing(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    form = await open_form(bot, 1)
    await setup.change_setting(bot.db, GUILD, "photo_required", "yes", now=SETTING_AT)
    before = await snapshot(bot)
    said = await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), ["100"] * len(form.inputs))
    assert "/score photo:" in said.text
    assert await snapshot(bot) == before
