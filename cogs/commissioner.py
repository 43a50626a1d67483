"""/league …: the commissioner's commands, refused for everyone else at run time."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Literal

import discord
from discord import Interaction, app_commands
from discord.ext import commands

from bot.parsing import parse_clock, parse_date, parse_money, parse_score
from bot.services import (
    announcements,
    attendance,
    backup,
    finalize,
    money,
    picks,
    scores,
    standings,
)
from bot.services import setup as league_setup
from bot.services.setup import SETTING_LIMITS
from bot.ui import render
from bot.ui.approvals import require_commissioner
from bot.ui.replies import respond
from cogs._base import league_bot, now_of, post

if TYPE_CHECKING:
    from bot.client import LeagueBot

Setting = Literal[
    "regular_nights",
    "games_per_night",
    "pre_makeup_night_limit",
    "bonus_start_week",
    "multiplier_start_week",
    "division_week",
    "division_min_players",
    "two_swap_match_points",
    "dues_cents",
    "payout_first_percent",
]
ChangeKind = Literal[
    "correction", "penalty", "malfunction_replay", "slam_tilt_replay", "tilt_replay"
]
assert set(Setting.__args__) == set(SETTING_LIMITS)  # type: ignore[attr-defined]


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)  # a hint; the role is checked at run time
class Commissioner(commands.GroupCog, group_name="league"):
    """The commissioner's tools."""

    async def interaction_check(self, interaction: Interaction) -> bool:
        require_commissioner(interaction)
        return True

    async def _ack(self, interaction: Interaction) -> tuple[object, int]:
        await interaction.response.defer(ephemeral=True, thinking=True)
        bot = league_bot(interaction)
        return bot, bot.settings.guild_id

    @app_commands.command(name="setup")
    @app_commands.describe(name="The league's name", time_zone="IANA time zone (R1.3)")
    async def setup_league(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        time_zone: str = "America/New_York",
    ) -> None:
        """Start this server's league."""
        bot, guild = await self._ack(interaction)
        league = await league_setup.create_league(
            bot.db, guild, name, time_zone=time_zone, now=now_of(interaction)
        )
        await respond(interaction, f"League {league.name} is set up ({league.time_zone}).")

    @app_commands.command(name="season")
    @app_commands.describe(
        name="e.g. Spring 2026",
        start="First night, e.g. 2026-03-04",
        weekday="League weekday",
        nights="Regular-season nights (R1.1)",
    )
    async def season(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 100],
        start: app_commands.Range[str, 1, 20],
        weekday: str = "Wednesday",
        nights: app_commands.Range[int, 1, 52] = 10,
    ) -> None:
        """Start a season (closes the running one; history stays)."""
        day = parse_date(start)
        bot, guild = await self._ack(interaction)
        made, dates = await league_setup.start_season(
            bot.db,
            guild,
            name,
            day,
            weekday=weekday,
            regular_nights=nights,
            now=now_of(interaction),
        )
        listed = ", ".join(f"{n.week}: {n.date:%d %b}" for n in dates)
        await respond(interaction, f"Season {made.name}: {made.weekday}s. Nights {listed}.")

    @app_commands.command(name="setting")
    @app_commands.describe(name="Which setting", value="Its new value (whole number)")
    async def setting(self, interaction: Interaction, name: Setting, value: int) -> None:
        """Change a rule setting of the season."""
        bot, guild = await self._ack(interaction)
        season = await league_setup.change_setting(bot.db, guild, name, value)
        await respond(interaction, f"{name} is now {getattr(season, name)}.")

    @app_commands.command(name="time")
    @app_commands.describe(name="Which time", value="Wall-clock time, e.g. 19:15")
    async def time(
        self,
        interaction: Interaction,
        name: Literal[
            "play_time", "grace_until", "late_cutoff", "groupings_time", "picks_lock_time"
        ],
        value: app_commands.Range[str, 1, 5],
    ) -> None:
        """Change one of the league's times (R1.3)."""
        clock = parse_clock(value)
        bot, guild = await self._ack(interaction)
        await league_setup.set_league_time(bot.db, guild, name, clock)
        await respond(interaction, f"{name} is now {clock:%H:%M}.")

    @app_commands.command(name="player-add")
    @app_commands.describe(
        member="The Discord member",
        skill="Skill 1-10, 10 = expert (R8.2)",
        name="Name in the standings (default: their display name)",
    )
    async def player_add(
        self,
        interaction: Interaction,
        member: discord.Member,
        skill: app_commands.Range[float, 1, 10] | None = None,
        name: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Add a league player."""
        bot, guild = await self._ack(interaction)
        added = await league_setup.add_player(
            bot.db,
            guild,
            name or member.display_name,
            discord_id=member.id,
            skill=skill,
            now=now_of(interaction),
        )
        again = " (welcome back: their history is kept)" if added.restored else ""
        await respond(interaction, f"{added.player.name} joined the league{again}.")

    @app_commands.command(name="player-remove")
    @app_commands.describe(name="The player's name")
    async def player_remove(
        self, interaction: Interaction, name: app_commands.Range[str, 1, 64]
    ) -> None:
        """Remove a player; their history stays (R12.4)."""
        bot, guild = await self._ack(interaction)
        player = await league_setup.remove_player(bot.db, guild, name, now=now_of(interaction))
        await respond(interaction, f"{player.name} was removed; their results stay in the history.")

    @app_commands.command(name="skill")
    @app_commands.describe(name="The player's name", value="Skill 1-10 (R8.2)")
    async def skill(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        value: app_commands.Range[float, 1, 10],
    ) -> None:
        """Set a player's skill rating."""
        bot, guild = await self._ack(interaction)
        player = await league_setup.set_skill(bot.db, guild, name, value)
        await respond(interaction, f"{player.name}'s skill is now {player.skill:g}.")

    @app_commands.command(name="grant")
    @app_commands.describe(name="The player's name", nights="Extra pre-makeup nights (R3.5)")
    async def grant(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        nights: app_commands.Range[int, 1, 10],
    ) -> None:
        """Grant a player more pre-makeup nights."""
        bot, guild = await self._ack(interaction)
        player = await league_setup.grant_pre_makeup_nights(bot.db, guild, name, nights)
        await respond(
            interaction,
            f"{player.name} has {player.extra_pre_makeup_nights} extra pre-makeup night(s).",
        )

    @app_commands.command(name="machine-add")
    @app_commands.describe(
        name="The machine's name", par="Raw score worth 1,000,000 normalized (R6.1)"
    )
    async def machine_add(
        self,
        interaction: Interaction,
        name: app_commands.Range[str, 1, 64],
        par: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Add a machine at the end of the league's machine order."""
        value = parse_score(par) if par is not None else None
        bot, guild = await self._ack(interaction)
        machine = await league_setup.add_machine(
            bot.db, guild, name, par=value, now=now_of(interaction)
        )
        await respond(
            interaction, f"{machine.name} added. Every player owes a pre-makeup score on it (R3.1)."
        )

    @app_commands.command(name="par")
    @app_commands.describe(
        machine="The machine", value="Its par, or 'median' for the pre-makeup median (R6.2)"
    )
    async def par(
        self,
        interaction: Interaction,
        machine: app_commands.Range[str, 1, 64],
        value: app_commands.Range[str, 1, 40],
    ) -> None:
        """Set a machine's par."""
        par = None if value.strip().lower() == "median" else parse_score(value)
        bot, guild = await self._ack(interaction)
        found = await league_setup.set_par(bot.db, guild, machine, par)
        shown = f"{found.par:,}" if found.par else "the median of approved pre-makeup scores"
        await respond(interaction, f"{found.name}'s par is {shown}.")

    @app_commands.command(name="working")
    @app_commands.describe(machine="The machine", working="Is it working?")
    async def working(
        self, interaction: Interaction, machine: app_commands.Range[str, 1, 64], working: bool
    ) -> None:
        """Mark a machine working or out of order (R4.1)."""
        bot, guild = await self._ack(interaction)
        found = await league_setup.set_working(bot.db, guild, machine, working)
        await respond(
            interaction, f"{found.name} is {'working' if found.working else 'out of order'}."
        )

    @app_commands.command(name="skip")
    @app_commands.describe(date="The league night to skip, e.g. 2026-03-11", reason="Why")
    async def skip(
        self,
        interaction: Interaction,
        date: app_commands.Range[str, 1, 20],
        reason: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        """Skip a date; every later week moves (R1.2)."""
        day = parse_date(date)
        bot, guild = await self._ack(interaction)
        dates = await league_setup.skip_date(bot.db, guild, day, reason, now=now_of(interaction))
        listed = ", ".join(f"{n.week}: {n.date:%d %b}" for n in dates)
        await respond(interaction, f"{day:%d %B} is skipped. Nights now: {listed}.")
        await post(
            bot,
            bot.settings.announcement_channel_id,
            f"No league night on {day:%A %d %B}{': ' + reason if reason else ''}.",
        )

    @app_commands.command(name="lock")
    @app_commands.describe(week="Which week (default: tonight)")
    async def lock(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Lock the picks: every group's five games are set (R4)."""
        bot, guild = await self._ack(interaction)
        locked = await picks.lock_picks(bot.db, guild, week=week, now=now_of(interaction))
        text = render.locked(locked, locked[0].week) if locked else "No groups."
        if locked and not locked[0].newly_locked:
            await respond(interaction, f"Already locked; nothing changed.\n{text}")
            return
        await respond(interaction, text)
        # The same post the 19:15 job makes: claimed once, so it never goes out twice.
        key = f"lock:{locked[0].day.isoformat()}" if locked[0].day else None
        if key and await announcements.claim(bot.db, guild, key, now_of(interaction)):
            last = None
            for piece in render.chunks(text):
                last = await post(bot, bot.settings.announcement_channel_id, piece)
            channel = bot.settings.announcement_channel_id
            if last is not None:
                await announcements.record_sent(bot.db, guild, key, channel, last.id)
            else:  # the 19:15 job will try again
                await announcements.record_failed(bot.db, guild, key, channel, "post failed")

    @app_commands.command(name="games")
    @app_commands.describe(
        group="Group, e.g. 1 or A2", machines="The games in order, comma-separated"
    )
    async def games(
        self,
        interaction: Interaction,
        group: app_commands.Range[str, 1, 3],
        machines: app_commands.Range[str, 1, 400],
    ) -> None:
        """Override one group's games (R4.5)."""
        bot, guild = await self._ack(interaction)
        names = [m.strip() for m in machines.split(",") if m.strip()]
        done = await picks.set_games(bot.db, guild, group, names, now=now_of(interaction))
        await respond(
            interaction,
            f"{done.label}: " + ", ".join(f"{n}. {m}" for n, m in enumerate(done.games, 1)),
        )

    @app_commands.command(name="approve-all")
    @app_commands.describe(group="Group, e.g. 1 or A2")
    async def approve_all(
        self, interaction: Interaction, group: app_commands.Range[str, 1, 3]
    ) -> None:
        """Approve every pending score of one group."""
        bot, guild = await self._ack(interaction)
        approved = await scores.approve_all(
            bot.db, guild, group, by=interaction.user.id, now=now_of(interaction)
        )
        await respond(interaction, f"Approved {len(approved)} score(s) of group {group.upper()}.")

    @app_commands.command(name="change")
    @app_commands.describe(
        kind="What happened (R12)",
        week="Week",
        player="Player's name",
        game="Game number",
        reason="Why (kept in the audit trail)",
        score="New score (not for a penalty)",
    )
    async def change(
        self,
        interaction: Interaction,
        kind: ChangeKind,
        week: app_commands.Range[int, 1, 52],
        player: app_commands.Range[str, 1, 64],
        game: app_commands.Range[int, 1, 10],
        reason: app_commands.Range[str, 1, 500],
        score: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        """Correct a score, or apply a penalty or replay (R12), with a reason."""
        value = parse_score(score) if score is not None else None
        bot, guild = await self._ack(interaction)
        changed = await scores.change(
            bot.db,
            guild,
            week=week,
            player_name=player,
            game_number=game,
            kind=kind,
            reason=reason,
            new_score=value,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        c = changed.change
        old = f"{c.old_score:,}" if c.old_score is not None else "none"
        who = changed.view.player.name
        text = f"{who}, week {week} game {game}: {old} → {c.new_score:,} ({kind})."
        if changed.refinalized is not None:
            text += " Week results recomputed."
            await announce(bot, render.results(changed.refinalized))
        await respond(interaction, text)

    @app_commands.command(name="tie")
    @app_commands.describe(
        week="Week",
        game="Game number",
        players="Tied players, highest placed first, comma-separated",
    )
    async def tie(
        self,
        interaction: Interaction,
        week: app_commands.Range[int, 1, 52],
        game: app_commands.Range[int, 1, 10],
        players: app_commands.Range[str, 1, 300],
    ) -> None:
        """Record the order of tied scores (R5.4)."""
        bot, guild = await self._ack(interaction)
        names = [p.strip() for p in players.split(",") if p.strip()]
        summary = await scores.record_tie_order(
            bot.db,
            guild,
            week=week,
            game_number=game,
            players=names,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        text = f"Week {week} game {game}: {' > '.join(names)}."
        if summary is not None:
            text += " Week results recomputed."
            await announce(bot, render.results(summary))
        await respond(interaction, text)

    @app_commands.command(name="mark")
    @app_commands.describe(
        player="Player's name",
        status="Late (misses some games) or absent",
        date="Night (default: next)",
    )
    async def mark(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        status: Literal["late", "absent"],
        date: app_commands.Range[str, 1, 20] | None = None,
    ) -> None:
        """Record that a player came late or did not come (R2.3-R2.4)."""
        day = parse_date(date) if date else None
        bot, guild = await self._ack(interaction)
        given = await attendance.mark(
            bot.db, guild, player, status, by=interaction.user.id, day=day, now=now_of(interaction)
        )
        await respond(interaction, render.notice(given))

    @app_commands.command(name="finalize")
    @app_commands.describe(week="Which week (default: tonight)")
    async def finalize(
        self, interaction: Interaction, week: app_commands.Range[int, 1, 52] | None = None
    ) -> None:
        """Finalize the night: results, bonus, movement, payouts."""
        bot, guild = await self._ack(interaction)
        summary = await finalize.finalize(
            bot.db, guild, week=week, by=interaction.user.id, now=now_of(interaction)
        )
        if not summary.newly_finalized:
            await respond(
                interaction, f"Week {summary.night.week} was already final; nothing changed."
            )
            return
        await respond(interaction, f"Week {summary.night.week} is final.")
        await announce(bot, render.results(summary))
        await announce(bot, render.standings(await standings.standings(bot.db, guild)))

    @app_commands.command(name="dues")
    @app_commands.describe(
        player="Player's name", week="Week", amount="Dollars (default: the season's dues)"
    )
    async def dues(
        self,
        interaction: Interaction,
        player: app_commands.Range[str, 1, 64],
        week: app_commands.Range[int, 1, 52],
        amount: app_commands.Range[str, 1, 12] | None = None,
    ) -> None:
        """Record dues paid (R10.1)."""
        cents = parse_money(amount) if amount else None
        bot, guild = await self._ack(interaction)
        pot = await money.record_dues(
            bot.db,
            guild,
            player,
            week,
            cents=cents,
            by=interaction.user.id,
            now=now_of(interaction),
        )
        again = " The week was final: its payout was recomputed." if pot.recomputed else ""
        await respond(
            interaction,
            f"Week {week}: dues {render.money(pot.dues_cents)}, pot {render.money(pot.pot_cents)}."
            + again,
        )

    @app_commands.command(name="fund")
    @app_commands.describe(amount="Dollars to add to the season prize fund", note="What it is")
    async def fund(
        self,
        interaction: Interaction,
        amount: app_commands.Range[str, 1, 12],
        note: app_commands.Range[str, 0, 200] = "",
    ) -> None:
        """Add to the season prize fund (R10.1)."""
        cents = parse_money(amount)
        bot, guild = await self._ack(interaction)
        total = await money.add_to_fund(
            bot.db, guild, cents, note, by=interaction.user.id, now=now_of(interaction)
        )
        await respond(interaction, f"The prize fund is now {render.money(total)}.")

    @app_commands.command(name="playoffs")
    @app_commands.describe(unavailable="Qualifiers who cannot come, comma-separated (R13.2)")
    async def playoffs(
        self, interaction: Interaction, unavailable: app_commands.Range[str, 0, 300] = ""
    ) -> None:
        """The playoff qualifiers and alternates (R13)."""
        bot, guild = await self._ack(interaction)
        names = [n.strip() for n in unavailable.split(",") if n.strip()]
        await respond(interaction, render.playoffs(await standings.playoffs(bot.db, guild, names)))

    @app_commands.command(name="backup")
    async def backup(self, interaction: Interaction) -> None:
        """Write a consistent copy of the league's database."""
        bot, _ = await self._ack(interaction)
        folder = bot.settings.backup_dir
        await asyncio.to_thread(folder.mkdir, parents=True, exist_ok=True)
        path = await backup.backup(bot.db, folder, now=now_of(interaction))
        await respond(interaction, f"Backed up to {path.name}.")

    @app_commands.command(name="sync")
    async def sync(self, interaction: Interaction) -> None:
        """Register the slash commands with Discord for this server."""
        bot, _ = await self._ack(interaction)
        count = await bot.sync_guild_commands()
        await respond(interaction, f"Synced {count} commands.")


async def announce(bot: LeagueBot, text: str) -> None:
    """Post to the announcement channel, split within Discord's limits."""
    for piece in render.chunks(text):
        await post(bot, bot.settings.announcement_channel_id, piece)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Commissioner())
