"""/score and /premakeup: submitted scores wait for the commissioner's buttons."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor

import aiohttp
import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot import photos
from bot.components.interactions import deliver, league_bot, now_of
from bot.models import Photo
from bot.parsing import InputError, parse_score
from bot.services import premakeups, scores
from bot.services.errors import LeagueError
from bot.ui import delivery
from bot.ui.replies import guild_of, respond
from cogs.scores import scores_text

log = logging.getLogger(__name__)
NOT_DOWNLOADED = "The photo could not be fetched from Discord. Send the score again with it."
# One thread of its own cleans the photos, one at a time: a burst of photos waits in
# its queue (holding no decoded picture, and none of the threads the bot's other
# work, such as drawing the standings picture, runs in).
PHOTO_WORKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="photo")


async def cleaned(photo: discord.Attachment) -> Photo:
    """The photo's bytes, checked and cleaned off the event loop (bot/photos.py):
    nobody but the bot ever sees the file as it was sent."""
    try:
        data = await photo.read()
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        log.warning("could not download photo %s (%d bytes): %s", photo.id, photo.size, error)
        raise InputError(NOT_DOWNLOADED) from None
    return await asyncio.get_running_loop().run_in_executor(PHOTO_WORKER, photos.clean, data)


async def my_game_choices(interaction: Interaction, current: str) -> list[app_commands.Choice[int]]:
    """The user's games tonight that match what they typed (/score, /score-form)."""
    bot = league_bot(interaction)
    try:
        games = await scores.my_games(bot.db, guild_of(interaction), interaction.user.id)
    except LeagueError:
        return []
    return [
        app_commands.Choice(name=f"Game {g.number} · {g.machine}"[:100], value=g.number)
        for g in games
        if current.strip().lower() in f"game {g.number} {g.machine}".lower()
    ][:25]


class Scores(commands.Cog):
    @app_commands.command(name="score")
    @app_commands.guild_only()
    @app_commands.describe(
        game="One of tonight's games of your group",
        score="The score, e.g. 1234567, 1,234,567, 850M, 1.2B or 75k",
        player="A player of your group (default: you)",
        photo="A photo of the score display",
    )
    async def score(
        self,
        interaction: Interaction,
        game: app_commands.Range[int, 1, 10],
        score: app_commands.Range[str, 1, 40],
        player: discord.Member | None = None,
        photo: discord.Attachment | None = None,
    ) -> None:
        """Submit a score for one of tonight's games; the commissioner approves it."""
        value = parse_score(score)
        if photo is not None:
            photos.check_size(photo.size)  # as Discord gives it: nothing is downloaded yet
        await interaction.response.defer(ephemeral=True, thinking=True)
        kept = await cleaned(photo) if photo is not None else None
        bot = league_bot(interaction)
        view = await scores.submit(
            bot.db,
            guild_of(interaction),
            interaction.user.id,
            game,
            value,
            player=player.id if player else None,
            photo=kept,
            now=now_of(interaction),
        )
        # Its approval post is owed in the same transaction: the answer is true.
        deliver(interaction)
        await respond(interaction, "Submitted:\n" + scores_text.score_pending(view))

    @score.autocomplete("game")
    async def game_choices(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await my_game_choices(interaction, current)

    @app_commands.command(name="premakeup")
    @app_commands.guild_only()
    @app_commands.describe(
        machine="The machine you played",
        score="Your score",
        with_="A league player who was there",
        also="Another league player who was there",
    )
    @app_commands.rename(with_="with")
    async def premakeup(
        self,
        interaction: Interaction,
        machine: app_commands.Range[str, 1, 64],
        score: app_commands.Range[str, 1, 40],
        with_: discord.Member,
        also: discord.Member | None = None,
    ) -> None:
        """Record your pre-makeup score on a machine; the commissioner approves it."""
        value = parse_score(score)
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        witnesses = [with_.id] + ([also.id] if also else [])
        done = await premakeups.submit(
            bot.db,
            guild_of(interaction),
            interaction.user.id,
            machine,
            value,
            witnesses,
            now=now_of(interaction),
        )
        deliver(interaction)  # its approval post, owed with it
        await respond(interaction, "Submitted:\n" + delivery.pre_makeup_pending(done))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Scores())
