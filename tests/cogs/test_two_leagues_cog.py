"""Two leagues in two servers on one bot, as the cogs meet them: a click, a
menu or a page of one server naming the other's card, scores or season (a
forged custom id) is refused and changes nothing, and one player in both
leagues sees each league's own season where they ask. The whole night of two
leagues through Discord: tests/e2e/test_two_leagues_e2e.py."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import discord

from bot.components.paging import PageButton
from bot.database import Database
from bot.models import ServerSetup
from bot.repositories import cards
from bot.restore import restore
from bot.services import approvals, machine_list, membership, scores, setup, standings
from cogs.commissioner import Commissioner
from cogs.exports.exports import export_season
from cogs.league.admin import OPERATOR_BACKUP, OPERATOR_SYNC
from cogs.scorecards.scorecards_views import ApproveCompleteButton, RejectSelect
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import (
    COMMISSIONER_ROLE,
    GUILD,
    OPERATOR,
    FakeBot,
    FakeChannel,
    FakeInteraction,
    FakeMember,
    FakeRole,
    click,
    invoke,
)
from tests.cogs.league_play import lock, night_of

SOUTH = GUILD + 1  # the second server
TONIGHT = at(night_of(1), "20:00")


async def two_leagues(bot: FakeBot) -> FakeBot:
    """The South's league beside the fixture's: P1 plays in both (as 'P1 South')."""
    bot.setups[SOUTH] = ServerSetup(SOUTH, 555555555555555551, 555555555555555552,
                                    COMMISSIONER_ROLE)  # fmt: skip
    for channel in (555555555555555551, 555555555555555552):
        bot.channels[channel] = FakeChannel(channel)
    now = at(date(2026, 1, 1))
    await setup.create_league(bot.db, SOUTH, "South League", now=now)
    await setup.start_season(bot.db, SOUTH, "South Spring", night_of(1), now=now)
    await membership.add_player(bot.db, SOUTH, "P1 South", discord_id=PLAYERS[1].id, now=now)
    await machine_list.add_machine(bot.db, SOUTH, "Pinbot", par=10**9, now=now)
    return bot


def in_south(interaction: FakeInteraction) -> FakeInteraction:
    interaction.guild_id = SOUTH
    return interaction


async def test_two_leagues_a_forged_card_click_from_the_other_server_changes_nothing(
    league: FakeBot,
) -> None:
    bot = await two_leagues(league)
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 500_000_000, now=TONIGHT)
    await bot.outbox.flush()
    async with bot.db.read() as conn:
        (card_id,) = [
            row[0] for row in await conn.execute_fetchall("SELECT id FROM approval_cards")
        ]
        assert await cards.guild_of(conn, card_id) == GUILD
    south_koi = as_user(bot, COMMISSIONER, TONIGHT)  # the South's commissioner (same role id)
    said = await click(ApproveCompleteButton(card_id), in_south(south_koi))
    assert said.text == "That card no longer exists."
    menu = RejectSelect(card_id, [discord.SelectOption(label="Game 1", value="g1")])
    said = await click(menu, in_south(as_user(bot, COMMISSIONER, TONIGHT)), ["g1"])
    assert said.text == "That card no longer exists."  # nothing of the North's card shown
    pending = await scores.my_games(bot.db, GUILD, PLAYERS[1].id)
    assert pending  # still waiting for the North's commissioner


async def test_two_leagues_a_page_of_the_other_servers_season_is_refused(league: FakeBot) -> None:
    bot = await two_leagues(league)
    north_season = await standings.season_id(bot.db, GUILD)
    page = PageButton("standings", 1, f":{north_season}")
    said = await click(page, in_south(as_user(bot, PLAYERS[1], TONIGHT)))
    assert said.text == "That season is no longer kept."


async def test_two_leagues_one_player_sees_each_leagues_own_season(league: FakeBot) -> None:
    bot = await two_leagues(league)
    cog = Standings()
    north = await invoke(cog.me, cog, as_user(bot, PLAYERS[1], TONIGHT))
    south = await invoke(cog.me, cog, in_south(as_user(bot, PLAYERS[1], TONIGHT)))
    assert north.text.startswith("**P1** ·") and south.text.startswith("**P1 South** ·")
    table = await invoke(cog.standings, cog, in_south(as_user(bot, PLAYERS[1], TONIGHT)))
    assert "1. P1\xa0South" in table.text and "P2" not in table.text  # kept whole on a phone


async def test_two_leagues_each_export_holds_its_own_league_only(league: FakeBot) -> None:
    bot = await two_leagues(league)
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 500_000_000, now=TONIGHT)
    north, south = await export_season(bot.db, GUILD), await export_season(bot.db, SOUTH)
    assert (north.league, south.league) == ("League", "South League")
    north_text, south_text = repr(north.tables), repr(south.tables)
    assert "P1 South" not in north_text and "Pinbot" not in north_text
    assert "P1 South" in south_text and "Medieval Madness" not in south_text
    assert "500000000" in north_text and "500000000" not in south_text


async def test_two_leagues_a_dm_names_its_league(league: FakeBot) -> None:
    """P1 plays in both leagues and gets both leagues' DMs from the one bot:
    each names its league."""
    bot = await two_leagues(league)
    await lock(bot)
    view = await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 500_000_000, now=TONIGHT)
    await approvals.decide_score(bot.db, GUILD, view.score.id, False, by=COMMISSIONER.id,
                                 now=TONIGHT, reason="Blurry photo")  # fmt: skip
    await bot.outbox.flush()
    (dm,) = bot.dms[PLAYERS[1].id].sent
    assert dm.content.startswith("**League** · The commissioner rejected your score of "
                                 "500,000,000 on game 1")  # fmt: skip


# --- the one database file both leagues live in ---------------------------------------------

ADMIN = {c.qualified_name: c for c in Commissioner().walk_app_commands()}
OPERATOR_MEMBER = FakeMember(OPERATOR, "Operator", [FakeRole(COMMISSIONER_ROLE)])


async def test_two_leagues_a_leagues_commissioner_may_not_back_up_the_file_both_share(
    league: FakeBot,
) -> None:
    """One file holds both leagues: North's commissioner neither copies the other
    league onto the host's disk nor registers the commands both leagues share."""
    bot = await two_leagues(league)
    backup = ADMIN["league admin backup"]
    said = await invoke(backup, Commissioner(),
                        as_user(bot, COMMISSIONER, TONIGHT))  # fmt: skip
    assert said.text == OPERATOR_BACKUP
    assert not bot.settings.backup_dir.exists() or not any(bot.settings.backup_dir.iterdir())
    said = await invoke(ADMIN["league admin sync"], Commissioner(),
                        as_user(bot, COMMISSIONER, TONIGHT))  # fmt: skip
    assert said.text == OPERATOR_SYNC
    assert bot.synced == 0


async def test_two_leagues_a_backup_gives_each_league_back_its_own(
    league: FakeBot, tmp_path: Path
) -> None:
    """The operator's backup holds both leagues, and put back as the database it
    gives each server its own league, exactly as it was, and nothing of the other."""
    bot = await two_leagues(league)
    await lock(bot)
    await scores.submit(bot.db, GUILD, PLAYERS[1].id, 1, 500_000_000, now=TONIGHT)
    said = await invoke(ADMIN["league admin backup"], Commissioner(),
                        as_user(bot, OPERATOR_MEMBER, TONIGHT))  # fmt: skip
    assert said.text.startswith("Backed up to league-")
    (copy,) = bot.settings.backup_dir.iterdir()
    target = tmp_path / "elsewhere" / "league.sqlite3"
    target.parent.mkdir()
    done = restore(copy, target, now=TONIGHT, other_server=False)
    assert done.backup.leagues == (("League", GUILD), ("South League", SOUTH))
    restored = await Database.open(target)
    try:
        for server in (GUILD, SOUTH):
            again = await export_season(restored, server)
            assert again.tables == (await export_season(bot.db, server)).tables
    finally:
        await restored.close()
