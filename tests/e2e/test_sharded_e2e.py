"""Past a few thousand servers Discord requires shards: several gateway
connections, each getting the events of its own servers ((server id >> 22) %
shards). The stand-in deals events out as Discord does; `ShardedLeagueBot`
(`league-bot run --sharded`) starts on two shards and serves a league on each."""

from __future__ import annotations

import asyncio
from datetime import date
from pathlib import Path

from bot.client import ShardedLeagueBot
from bot.endpoints import point_at, use_gateway_of
from bot.stage import Stage, build_stage
from standin import DiscordStandIn
from tests.e2e.test_playoffs_e2e import at
from tests.e2e.test_two_leagues_e2e import process_only, say, set_up


async def test_two_leagues_the_bot_starts_sharded_with_a_league_on_each_shard(
    standin: DiscordStandIn, tmp_path: Path
) -> None:
    standin.recommended_shards = 2
    stages: list[Stage] = [
        build_stage(standin, name, ["Ann"], guild_id=guild_id)  # on shard 0, then shard 1
        for name, guild_id in (("Even Pinball", 2 << 22), ("Odd Pinball", (3 << 22) + 1))
    ]
    settings = process_only(standin, tmp_path / "league.sqlite3")
    assert settings.api_base is not None
    point_at(settings.api_base)
    bot = ShardedLeagueBot(settings, sync_commands=True, guild_ready_timeout=0.1)
    await bot.login(settings.token.reveal())
    await use_gateway_of(bot)
    connecting = asyncio.create_task(bot.connect(reconnect=False))
    try:
        async with asyncio.timeout(20):
            await bot.wait_until_ready()
        assert bot.shard_count == 2 and sorted(bot.shards) == [0, 1]
        assert standin.gateway.identifies == 2
        when = at(date(2026, 1, 2), "10:00")
        for stage in stages:  # each server's interactions come through its own shard
            done = await set_up(standin, stage, when)
            assert done.startswith("The league is set up here."), done
            named = await say(standin, stage.commissioner, stage.general, "league season setup",
                              {"name": f"League {stage.guild}"}, when)  # fmt: skip
            assert named.startswith(f"League League {stage.guild} is set up")
        assert {bot.get_guild(s.guild).shard_id for s in stages} == {0, 1}  # type: ignore[union-attr]
    finally:
        await standin.drained()
        await bot.close()
        await asyncio.gather(connecting, return_exceptions=True)
