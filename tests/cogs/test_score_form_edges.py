"""/score-form's Discord form: its boxes, its cut titles and labels, its lifetime,
and the answer to a form left blank."""

from __future__ import annotations

from bot.services import scores
from cogs.scores.scores_form_cog import ScoreForm
from tests.cogs.conftest import PLAYERS, as_user
from tests.cogs.fakes import FakeBot, submit_modal
from tests.cogs.test_score_form_cog import open_form
from tests.cogs.test_scores_cog import TONIGHT, locked


def test_each_box_is_optional_hints_the_score_formats_and_takes_40_characters() -> None:
    form = ScoreForm("Your scores · week 1", [scores.FormField("Game 1 · Twilight Zone", 1, 1)])
    [label] = form.to_dict()["components"]
    box = label["component"]
    assert box["placeholder"] == "e.g. 1,234,567 or 850M (blank: skip)"
    assert box["required"] is False
    assert box["max_length"] == 40


def test_a_title_or_label_of_45_characters_is_kept_and_a_longer_one_cut_to_45() -> None:
    """Discord takes 45 characters in a form's title and in a box's label."""
    exact = "Game 1 · " + "M" * 36
    longer = exact + "achine"
    assert len(exact) == 45
    form = ScoreForm(exact, [scores.FormField(exact, 1, 1), scores.FormField(longer, 2, 1)])
    data = form.to_dict()
    assert data["title"] == exact
    assert [c["label"] for c in data["components"]] == [exact, exact[:44] + "…"]


def test_an_open_form_is_forgotten_after_15_minutes() -> None:
    """discord.py keeps a form open (waiting for its submit) for 15 minutes, then
    lets it go: forms never submitted do not pile up while the bot runs."""
    form = ScoreForm("Your scores · week 1", [scores.FormField("Game 1 · Twilight Zone", 1, 1)])
    assert form.timeout == 900


async def test_a_blank_form_says_every_field_was_blank_and_nothing_was_stored(
    league: FakeBot,
) -> None:
    bot = await locked(league)
    form = await open_form(bot, 1)
    said = await submit_modal(form, as_user(bot, PLAYERS[1], TONIGHT), [""] * len(form.inputs))
    assert said.text == "Every field was blank: nothing was stored."
