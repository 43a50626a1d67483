"""Hardening found by attacking the bot: the database file replaced under it,
interactions from another server, the submitter on an approval post."""

from __future__ import annotations

import os
from pathlib import Path

import discord
import pytest

from bot.services import approvals, picks
from bot.ui.replies import APOLOGY, OTHER_SERVER, LeagueTree, report
from cogs.commissioner import Commissioner
from cogs.scores.scores_cog import Scores
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import APPROVALS, GUILD, FakeBot, click, invoke

TONIGHT = at(FIRST_NIGHT, "20:00")
SCORES = Scores()
LEAGUE = Commissioner()
MOVED = "The league's database file was moved or replaced while the bot was running"


def gone(path: str | os.PathLike[str]) -> bool:
    return not os.path.exists(path)


async def test_a_score_into_a_deleted_database_is_refused_not_acknowledged(
    league: FakeBot,
) -> None:
    await picks.lock_picks(league.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    os.remove(league.db.path)  # a cleanup script
    said = await invoke(SCORES.score, SCORES, as_user(league, PLAYERS[1], TONIGHT),
                        game=1, score="1000")  # fmt: skip
    assert said.text.startswith(MOVED) and "Nothing was saved" in said.text
    assert "Submitted" not in said.text and all(r.ephemeral for r in said.replies)
    again = await invoke(SCORES.score, SCORES, as_user(league, PLAYERS[2], TONIGHT),
                         game=1, score="2000")  # fmt: skip
    assert again.text.startswith(MOVED)
    # The commissioner is told once, in the approvals channel; no score was posted there.
    sent = [m.content for m in league.channels[APPROVALS].sent]
    assert len(sent) == 1 and sent[0].startswith("Commissioner: " + MOVED)
    assert gone(league.db.path)


async def test_a_commissioner_command_on_a_replaced_database_is_refused(
    league: FakeBot, tmp_path: Path
) -> None:
    copy = await league.db.backup(tmp_path / "old.sqlite3")
    os.replace(copy, league.db.path)
    said = await invoke(LEAGUE.machine_add, LEAGUE, as_user(league, COMMISSIONER, TONIGHT),
                        name="Black Knight")  # fmt: skip
    assert said.text.startswith(MOVED) and APOLOGY not in said.text


class _Tree(LeagueTree):
    def __init__(self) -> None:  # interaction_check needs no client of its own
        pass


def from_elsewhere(bot: FakeBot, member, guild_id: int | None):
    interaction = as_user(bot, member, TONIGHT)
    interaction.guild_id = guild_id
    return interaction


@pytest.mark.parametrize("guild_id", [GUILD + 1, None], ids=["other server", "direct message"])
async def test_a_command_from_another_server_is_refused_by_the_tree(
    league: FakeBot, guild_id: int | None
) -> None:
    interaction = from_elsewhere(league, COMMISSIONER, guild_id)
    with pytest.raises(discord.app_commands.CheckFailure) as refused:
        await _Tree().interaction_check(interaction)  # type: ignore[arg-type]
    await report(interaction, refused.value)  # type: ignore[arg-type]
    assert interaction.said.text == OTHER_SERVER
    assert [r.ephemeral for r in interaction.said.replies] == [True]


async def test_a_command_from_the_league_server_passes_the_tree(league: FakeBot) -> None:
    assert await _Tree().interaction_check(as_user(league, PLAYERS[1], TONIGHT)) is True


async def test_a_button_from_another_server_decides_nothing(league: FakeBot) -> None:
    await picks.lock_picks(league.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    await invoke(SCORES.score, SCORES, as_user(league, PLAYERS[1], TONIGHT), game=1, score="1000")
    posted = league.channels[APPROVALS].sent[-1]
    approve = posted.button("Approve all complete")
    interaction = from_elsewhere(league, COMMISSIONER, GUILD + 7)
    interaction.message = posted
    said = await click(approve, interaction)
    assert said.text == OTHER_SERVER and not said.edited
    assert [v.score.status for v in await approvals.pending(league.db, GUILD)] == ["pending"]
    menu = posted.button("Reject a score…")
    interaction = from_elsewhere(league, COMMISSIONER, GUILD + 7)
    said = await click(menu, interaction, [menu.item.options[0].value])
    assert said.text == OTHER_SERVER and said.modals == []


async def test_removing_a_player_of_the_night_being_played_says_what_is_left_to_do(
    league: FakeBot,
) -> None:
    await picks.lock_picks(league.db, GUILD, now=at(FIRST_NIGHT, "19:15"))
    said = await invoke(LEAGUE.player_remove, LEAGUE, as_user(league, COMMISSIONER, TONIGHT),
                        name="P3")  # fmt: skip
    assert "P3 was removed" in said.text
    assert "week 1, which is being played" in said.text and "/league night mark" in said.text
    marked = await invoke(LEAGUE.mark, LEAGUE, as_user(league, COMMISSIONER, TONIGHT),
                          player="P3", status="absent")  # fmt: skip
    assert "P3" in marked.text and APOLOGY not in marked.text and "no player" not in marked.text
