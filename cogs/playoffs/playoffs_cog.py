"""/playoffs: playoff night's field and bracket (everyone), a player's machine pick,
and the commissioner's date, check-in, start, games and corrections (R13)."""

from __future__ import annotations

from discord import Interaction, app_commands
from discord.ext import commands

from bot.components.interactions import (
    check_commissioner,
    deliver,
    league_bot,
    note_commissioner,
    now_of,
)
from bot.league_client import RESCHEDULES, LeagueClient
from bot.parsing import parse_date, parse_score
from bot.services import bracket_games, playoff_bracket, playoff_checkin, playoff_play, playoffs
from bot.ui.bracket import ROUNDS, bracket_view, picked, recorded
from bot.ui.playoffs import night_view
from bot.ui.replies import guild_of, respond
from cogs.playoffs import playoffs_text
from cogs.playoffs.playoffs_views import MATCH_ITEMS


@app_commands.guild_only()
class Playoffs(commands.GroupCog, group_name="playoffs"):
    """Playoff night: its date, format and field."""

    @app_commands.command(name="field")
    async def field(self, interaction: Interaction) -> None:
        """Playoff night: its date, its format and each division's field."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        shown = await playoffs.night_shown(bot.db, guild_of(interaction))
        await respond(interaction, night_view(shown))

    @app_commands.command(name="date", extras=RESCHEDULES)
    @app_commands.describe(date="The new date, e.g. 2026-03-25")
    async def move(self, interaction: Interaction, date: app_commands.Range[str, 1, 20]) -> None:
        """Move playoff night to another date (commissioner)."""
        day = parse_date(date)
        bot = await self._commissioner(interaction)
        shown = await playoffs.move(bot.db, guild_of(interaction), day, now=now_of(interaction))
        deliver(interaction)  # R13.4: the field is told
        await respond(interaction, playoffs_text.moved(shown))

    @app_commands.command(name="checkin")
    @app_commands.describe(players="The players who came, comma-separated")
    async def checkin(
        self, interaction: Interaction, players: app_commands.Range[str, 1, 1000]
    ) -> None:
        """Check in the playoff players who came (commissioner)."""
        bot = await self._commissioner(interaction)
        done = await playoff_checkin.check_in(
            bot.db, guild_of(interaction), players, now=now_of(interaction)
        )
        await respond(interaction, playoffs_text.checked_in(done))

    @app_commands.command(name="undo")
    @app_commands.describe(player="The qualifier replaced by mistake")
    async def undo(self, interaction: Interaction, player: app_commands.Range[str, 1, 64]) -> None:
        """Undo a replacement made by mistake, until the first score (commissioner)."""
        bot = await self._commissioner(interaction)
        undone = await playoff_checkin.undo(
            bot.db, guild_of(interaction), player, now=now_of(interaction)
        )
        deliver(interaction)  # the field is announced again
        await respond(interaction, playoffs_text.undone(undone))

    @app_commands.command(name="start")
    @app_commands.describe(machines="One machine per game, in game order, comma-separated")
    async def start(
        self, interaction: Interaction, machines: app_commands.Range[str, 1, 400]
    ) -> None:
        """Start playoff night on the machines named (commissioner)."""
        bot = await self._commissioner(interaction)
        play = await playoff_play.start(
            bot.db, guild_of(interaction), machines, now=now_of(interaction)
        )
        deliver(interaction)  # the games are posted for the players
        await respond(interaction, playoffs_text.started(play))

    @app_commands.command(name="bracket")
    async def bracket(self, interaction: Interaction) -> None:
        """The playoff bracket as it stands: matches, games and machines."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        await respond(
            interaction, bracket_view(await playoff_bracket.shown(bot.db, guild_of(interaction)))
        )

    @app_commands.command(name="pick")
    @app_commands.describe(machine="The machine of your match's next game")
    async def pick(self, interaction: Interaction, machine: app_commands.Range[str, 1, 64]) -> None:
        """Pick the machine of your bracket match's next game, when it is your pick."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        done = await bracket_games.pick(
            bot.db, guild_of(interaction), interaction.user.id, machine, now=now_of(interaction)
        )
        deliver(interaction)  # the match's card shows the pick
        await respond(interaction, picked(done))

    @app_commands.command(name="game")
    @app_commands.describe(
        player="A player of the match",
        score="That player's score, e.g. 1234567, 850M or 1.2B",
        opponent_score="Their opponent's score",
        machine="The machine, when its picker has not picked it with /playoffs pick",
    )
    async def game(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        score: app_commands.Range[str, 1, 40],
        opponent_score: app_commands.Range[str, 1, 40],
        machine: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Record the next game of a bracket match: both scores (commissioner)."""
        mine, theirs = parse_score(score), parse_score(opponent_score)
        bot = await self._commissioner(interaction)
        done = await bracket_games.play(
            bot.db, guild_of(interaction), player, mine, theirs, machine, now=now_of(interaction)
        )
        deliver(interaction)  # a decided match is announced with the bracket
        await respond(interaction, recorded(done))

    @app_commands.command(name="fix")
    @app_commands.describe(
        player="A player of the match",
        round="Which of their matches",
        game="The game's number in the match",
        score="That player's score",
        opponent_score="Their opponent's score",
        reason="Why, for the audit trail",
    )
    @app_commands.choices(round=[app_commands.Choice(name=n, value=v) for v, n in ROUNDS.items()])
    async def fix(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        round: app_commands.Choice[str],
        game: app_commands.Range[int, 1, 9],
        score: app_commands.Range[str, 1, 40],
        opponent_score: app_commands.Range[str, 1, 40],
        reason: app_commands.Range[str, 1, 200],
    ) -> None:
        """Correct a played game of a bracket match (commissioner)."""
        mine, theirs = parse_score(score), parse_score(opponent_score)
        bot = await self._commissioner(interaction)
        done = await bracket_games.fix(
            bot.db,
            guild_of(interaction),
            player,
            round.value,
            game,
            mine,
            theirs,
            reason,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        deliver(interaction)  # the match and any changed places are announced again
        await respond(interaction, recorded(done))

    async def _commissioner(self, interaction: Interaction) -> LeagueClient:
        """The role check, then the acknowledgement (Discord's 3 s)."""
        await check_commissioner(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await note_commissioner(interaction)
        return league_bot(interaction)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Playoffs())
    bot.add_dynamic_items(*MATCH_ITEMS)  # a match card's buttons, after a restart too
