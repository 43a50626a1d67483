"""The fakes use only names the real discord.py classes have, so a cog that
works against them uses the real API (tests/cogs/fakes.py)."""

from __future__ import annotations

import ast
import inspect
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from tests.cogs.fakes import (
    FakeChannel,
    FakeFollowup,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeResponse,
    Said,
)

ROOT = Path(__file__).resolve().parents[2]


def fakes() -> list[tuple[Any, type, set[str]]]:
    """(a fake, the real class, the fake's test-only helpers)."""
    channel = FakeChannel(1)
    return [
        # said: what the bot sent, for the test to read.
        (FakeInteraction(object(), FakeMember(1, "x"), datetime.now(UTC)),  # type: ignore[arg-type]
         discord.Interaction, {"said"}),
        (FakeResponse(Said()), discord.InteractionResponse, set()),
        # interaction.followup is a discord.Webhook.
        (FakeFollowup(Said()), discord.Webhook, set()),
        # sent: messages posted; refuse: make send() fail like Discord's 403.
        (channel, discord.TextChannel, {"sent", "refuse"}),
        # view: the buttons posted with the message (discord.Message keeps only
        # `components`); button(): find one to click; pinged: the users its
        # allowed_mentions let it ping. No bot code reads them.
        # edits: how often the bot edited it; files: the bytes of its attachments
        # (discord.Message has `attachments`, read through their URLs); deleted:
        # someone deleted it in Discord (an edit of it is refused).
        (FakeMessage(channel, "text", None), discord.Message,
         {"view", "button", "pinged", "edits", "files", "deleted"}),
        (FakeMember(1, "x"), discord.Member, set()),
    ]  # fmt: skip


def public_names(fake: Any) -> set[str]:
    return {name for name in dir(fake) if not name.startswith("_")}


@pytest.mark.parametrize(
    ("fake", "real", "helpers"), fakes(), ids=lambda x: getattr(x, "__name__", None)
)
def test_fakes_match_discord(fake: Any, real: type, helpers: set[str]) -> None:
    names = public_names(fake)
    assert helpers <= names, f"stale helper names: {sorted(helpers - names)}"
    missing = sorted(n for n in names - helpers if not hasattr(real, n))
    assert missing == [], f"{type(fake).__name__} has {missing}, {real.__name__} does not"


@pytest.mark.parametrize(
    ("fake", "real", "helpers"), fakes(), ids=lambda x: getattr(x, "__name__", None)
)
def test_fake_methods_take_what_the_real_ones_take(
    fake: Any, real: type, helpers: set[str]
) -> None:
    for name in sorted(public_names(fake) - helpers):
        method = getattr(type(fake), name, None)
        if not inspect.isfunction(method):
            continue  # a plain attribute or a property
        real_method = getattr(real, name)
        assert inspect.iscoroutinefunction(method) == inspect.iscoroutinefunction(real_method), (
            f"{name}: async on one side only"
        )
        real_params = inspect.signature(real_method).parameters
        for param in list(inspect.signature(method).parameters.values())[1:]:
            assert param.name in real_params, f"{real.__name__}.{name} has no {param.name!r}"
            real_param = real_params[param.name]
            if param.kind is inspect.Parameter.KEYWORD_ONLY:
                assert real_param.kind in (
                    inspect.Parameter.KEYWORD_ONLY,
                    inspect.Parameter.POSITIONAL_OR_KEYWORD,
                ), f"{real.__name__}.{name}({param.name}) is not a keyword"


def test_no_bot_code_reads_the_test_only_helpers() -> None:
    """`view`, `said`, `sent` … exist only on the fakes: no cog or UI code may use them
    on an interaction, message or channel."""
    helpers = {"said", "sent", "refuse", "button", "pinged"}
    used = []
    for folder in ("cogs", "bot/ui"):
        for path in sorted((ROOT / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr in helpers:
                    used.append(f"{path.name}:{node.lineno} .{node.attr}")
                if (
                    isinstance(node, ast.Attribute)
                    and node.attr == "view"
                    and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "message"
                ):
                    used.append(f"{path.name}:{node.lineno} .message.view")
    assert used == []


def test_every_cog_reply_is_checked_for_rule_ids() -> None:
    """`invoke` and `click` fail a test whose reply names an R id."""
    from tests.cogs.fakes import Reply, Said, no_rule_ids

    with pytest.raises(AssertionError, match="a rule id reaches a user"):
        no_rule_ids(Said([Reply("Zero Point Rule (R3.4) applies.", True)]))
    embed = discord.Embed(title="Week 1 results", description="Payout (R10.2): Ann $6.75")
    with pytest.raises(AssertionError, match="a rule id reaches a user"):
        no_rule_ids(Said([Reply("", False, embeds=[embed])]))  # embeds are read too
    fine = Said([Reply("Payout from the $9.00 pot: Ann $6.75", False)])
    assert no_rule_ids(fine) is fine


async def test_an_edit_changes_only_what_it_sends_as_discord_does() -> None:
    """discord.py's `Message.edit` sends only the fields it is given, and Discord
    keeps the rest: an edit of the text alone keeps the buttons and embeds; a
    view or embeds of None removes them. The fake must not be kinder."""
    view, embed = discord.ui.View(), discord.Embed(title="Week 1 · Group 1")
    message = await FakeChannel(1).send("waiting", view=view, embeds=[embed])
    await message.edit(content="approved")
    assert (message.content, message.view, message.embeds) == ("approved", view, [embed])
    await message.edit(view=None)
    assert (message.content, message.view, message.embeds) == ("approved", None, [embed])
    await message.edit(content="approved", embeds=[])
    assert (message.content, message.embeds) == ("approved", [])
