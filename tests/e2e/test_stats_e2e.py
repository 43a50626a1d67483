"""/stats, /machine and /standings' season option through the loopback Discord:
options, autocomplete and private refusals as a member meets them."""

from __future__ import annotations

from datetime import timedelta

from bot.config import Settings
from bot.transcript import shown as on_phone
from standin import DiscordStandIn
from tests.e2e.harness import World, running_bot
from tests.e2e.test_standin import run, start_small_season


async def test_stats_machine_and_past_standings_through_discord(
    standin: DiscordStandIn, world: World, settings: Settings
) -> None:
    koi, ann, bob = world.commissioner, world.players[0], world.players[1]
    async with running_bot(settings):
        start = await start_small_season(standin, world)
        typing = await standin.autocomplete(
            ann, "stats", {"player": "b"}, "player", channel_id=world.general
        )
        assert [c["value"] for c in (await typing.done()).choices] == ["Bob"]
        typing = await standin.autocomplete(
            ann, "machine", {"name": "mad"}, "name", channel_id=world.general
        )
        assert [c["value"] for c in (await typing.done()).choices] == ["Medieval Madness"]
        typing = await standin.autocomplete(
            ann, "standings", {"season": ""}, "season", channel_id=world.general
        )
        assert [c["value"] for c in (await typing.done()).choices] == ["Spring"]

        mine = await run(standin, ann, "stats", {}, channel=world.general)
        assert mine.ephemeral and mine.content.startswith("**Ann** · Spring")
        other = await run(standin, ann, "stats", {"player": "Bob"}, channel=world.general)
        assert other.ephemeral and other.content.startswith("**Bob** · Spring")
        refused = await run(standin, ann, "stats", {"player": "Zed"}, channel=world.general)
        assert refused.ephemeral
        assert refused.content == "There is no player called 'Zed' in this league."
        refused = await run(standin, ann, "stats", {"season": "Fall"}, channel=world.general)
        assert refused.ephemeral and refused.content.startswith("There is no season called 'Fall'.")
        shown = await run(
            standin, bob, "machine", {"name": "Medieval Madness"}, channel=world.general
        )
        assert shown.ephemeral and "Par: not set yet" in shown.content
        refused = await run(standin, bob, "machine", {"name": "Xenon"}, channel=world.general)
        assert refused.ephemeral and refused.content.startswith("There is no machine called")

        closed = await run(standin, koi, "season close", {"confirm": True}, channel=world.general)
        assert closed.ephemeral and closed.content.startswith("Spring is closed")
        started = await run(
            standin, koi, "league season start", {"name": "Summer",
            "start": (start + timedelta(days=70)).isoformat()}, channel=world.general,
        )  # fmt: skip
        assert started.content.startswith("Season Summer:"), started.content
        past = await run(standin, bob, "standings", {"season": "Spring"}, channel=world.general)
        assert not past.ephemeral
        assert on_phone(past.reply or {}).startswith("**Standings · Spring**")
        refused = await run(standin, bob, "standings", {"season": "Nope"}, channel=world.general)
        assert refused.ephemeral and refused.content.startswith("There is no season called")
