"""A final group played through on playoff night (R13.3, R13.5, R13.6): the
commissioner starts it on five machines, the players send scores with /score,
the scorecard is the group's, approving the last score posts the champion,
and a correction decides again."""

from __future__ import annotations

from datetime import date

from discord import app_commands

from bot.services import approvals, score_changes, scores, setup
from cogs.commissioner import Commissioner
from cogs.playoffs.playoffs_cog import Playoffs
from cogs.scores.scores_cog import Scores
from cogs.standings.standings_cog import Standings
from cogs.stats.stats_cog import Stats
from tests.cogs.conftest import COMMISSIONER, PLAYERS, as_user, at
from tests.cogs.fakes import ANNOUNCEMENTS, APPROVALS, GUILD, FakeBot, Said, invoke, shown
from tests.cogs.league_play import MACHINES, play_week
from tests.cogs.test_exports_cog import export, tables
from tests.moments import SETTING_AT

COG = Playoffs()
COMMANDS_NIGHT = next(
    c for c in Commissioner().walk_app_commands()
    if isinstance(c, app_commands.Command) and c.qualified_name == "league night approve-all"
)  # fmt: skip
NIGHT = date(2026, 1, 14)  # playoff night: the Wednesday after the one regular night
SIX = {n: (700 - 100 * n) * 1_000_000 for n in range(1, 7)}  # every game: P1 > P2 > … > P6


async def playoff_night(bot: FakeBot) -> FakeBot:
    """A season of one night: the group winners P1 and P4 qualify (seeds 1 and
    2), P2 is the first alternate. On playoff night P1 and P4 are checked in."""
    await setup.change_setting(bot.db, GUILD, "regular_nights", 1, now=SETTING_AT)
    await play_week(bot, 1, SIX)
    said = await invoke(COG.checkin, COG, as_user(bot, COMMISSIONER, at(NIGHT, "19:00")),
                        players="P1, P4")  # fmt: skip
    assert said.text == "Checked in: P1, P4."
    return bot


async def start(bot: FakeBot, machines: str, clock: str = "19:31") -> Said:
    return await invoke(COG.start, COG, as_user(bot, COMMISSIONER, at(NIGHT, clock)),
                        machines=machines)  # fmt: skip


def posted(bot: FakeBot, marker: str) -> list[str]:
    return [shown(m) for m in bot.channels[ANNOUNCEMENTS].sent if marker in shown(m)]


async def scores_in(bot: FakeBot, by_player: dict[int, int]) -> None:
    for player, score in by_player.items():
        for game in range(1, 6):
            await scores.submit(bot.db, GUILD, PLAYERS[player].id, game, score,
                                now=at(NIGHT, "20:00"))  # fmt: skip


async def test_r13_3_a_final_group_is_played_to_its_champion(league: FakeBot) -> None:
    bot = await playoff_night(league)
    said = await start(bot, ", ".join(MACHINES[:5]))
    assert said.text.startswith("Playoff night has started: 1 final group on Attack from Mars")
    (games,) = posted(bot, "play starts")
    assert "League: 1. P1, 2. P4" in games
    assert "Games: 1. Attack from Mars, 2. Medieval Madness" in games
    # /score works on playoff night as on a league night, on the group's own card.
    score = Scores()
    said = await invoke(score.score, score, as_user(bot, PLAYERS[4], at(NIGHT, "19:45")),
                        game=1, score="900M")  # fmt: skip
    assert said.text.startswith("Submitted:\nPlayoffs · Game 1 · Attack from Mars\n**P4**: 900")
    card = bot.channels[APPROVALS].sent[-1]
    assert shown(card).startswith("Playoffs")
    # P4 (seed 2) beats P1 in every game: the playoffs, not the standings, decide.
    await scores_in(bot, {1: 400_000_000})
    for game in range(2, 6):
        await scores.submit(bot.db, GUILD, PLAYERS[4].id, game, 900_000_000,
                            now=at(NIGHT, "20:30"))  # fmt: skip
    assert posted(bot, "**Playoffs · ") == []
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    await bot.outbox.flush()
    (champion,) = posted(bot, "**Playoffs · ")
    # R5.1: 3 points a game to the winner; 900M is less than 3 x 400M, so no
    # tripling point: P1 keeps it close and takes 1 a game.
    assert champion.startswith("**Playoffs · League champion: P4**\nChampion: P4 · 15 points")
    assert "2nd: P1 · 5 points" in champion


async def test_r13_6_a_correction_of_a_playoff_score_decides_again(league: FakeBot) -> None:
    bot = await playoff_night(league)
    await start(bot, ", ".join(MACHINES[:5]))
    await scores_in(bot, {1: 400_000_000, 4: 500_000_000})
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    for game in range(1, 6):  # R12.2: P4 loses every game to a penalty
        await score_changes.change(
            bot.db, GUILD, week=2, player_name="P4", game_number=game, kind="penalty",
            reason="tilted P1's ball away twice", by=COMMISSIONER.id, now=at(NIGHT, "21:30"),
        )  # fmt: skip
    await bot.outbox.flush()
    first, *_, last = posted(bot, "**Playoffs · ")
    assert first.startswith("**Playoffs · League champion: P4**")
    assert last.startswith("**Playoffs · League champion: P1**")


async def test_r13_3_playoff_night_starts_after_the_grace_on_named_working_machines(
    league: FakeBot,
) -> None:
    bot = await playoff_night(league)
    five = ", ".join(MACHINES[:5])
    for machines, clock, why in (
        (five, "19:20", "Play starts at the end of the grace period (19:30), when the field "
                        "is set."),
        (", ".join(MACHINES[:4]), "19:31", "Name 5 machines, one per game in game order, "
                                           "separated by commas (you named 4)."),
        (", ".join([MACHINES[0]] * 5), "19:31", "Each game is on a different machine; a "
                                                "machine is named twice."),
        ("Attack from Mars, Nope, a, b, c", "19:31", None),
    ):  # fmt: skip
        said = await start(bot, machines, clock)
        assert [r.ephemeral for r in said.replies] == [True]
        if why is not None:
            assert said.text == why
        else:
            assert "Nope" in said.text
    assert posted(bot, "play starts") == []
    said = await invoke(COG.start, COG, as_user(bot, PLAYERS[1], at(NIGHT, "19:31")),
                        machines=five)  # fmt: skip
    assert "commissioner" in said.text
    await start(bot, five)
    said = await start(bot, five)
    assert said.text == "Playoff night has already started."


async def test_r13_5_a_score_for_a_player_outside_the_field_is_refused(league: FakeBot) -> None:
    bot = await playoff_night(league)
    await start(bot, ", ".join(MACHINES[:5]))
    score = Scores()
    said = await invoke(score.score, score, as_user(bot, PLAYERS[2], at(NIGHT, "19:45")),
                        game=1, score="900M")  # fmt: skip
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == "You are not in the playoff field tonight; only its players' scores count."


async def test_r13_6_the_export_has_the_field_and_the_places(league: FakeBot) -> None:
    """playoffs.csv: every player of the field by standing, checked in or
    replaced, with the playoff places; final_standings.csv in playoff order."""
    bot = await playoff_night(league)
    await start(bot, ", ".join(MACHINES[:5]))
    await scores_in(bot, {1: 100_000_000, 4: 250_000_000})
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    _, data = await export(bot)
    found = tables(data)
    field = [(r["standing"], r["player"], r["role"], r["replaced_by"], r["playoff_place"])
             for r in found["playoffs"]]  # fmt: skip
    assert field == [
        ("1", "P1", "qualifier", "", "2"), ("2", "P4", "qualifier", "", "1"),
        ("3", "P2", "alternate", "", ""), ("4", "P5", "alternate", "", ""),
        ("5", "P3", "alternate", "", ""), ("6", "P6", "alternate", "", ""),
    ]  # fmt: skip
    assert all(r["checked_in"] for r in found["playoffs"][:2])
    assert all(r["date"] == "2026-01-14" for r in found["playoffs"])
    assert [r["name"] for r in found["final_standings"]][:3] == ["P4", "P1", "P2"]


async def test_r13_6_me_and_stats_show_each_players_part_in_the_playoffs(
    league: FakeBot,
) -> None:
    bot = await playoff_night(league)
    standings, stats = Standings(), Stats()

    async def me(player: int) -> str:
        said = await invoke(standings.me, standings, as_user(bot, PLAYERS[player],
                                                             at(NIGHT, "22:00")))  # fmt: skip
        return said.text.split("\n")[1]

    assert await me(4) == "Playoffs (Wednesday 14 January): in the field"
    assert await me(2) == "Playoffs (Wednesday 14 January): alternate"
    assert await me(6) == "Playoffs (Wednesday 14 January): alternate"  # the last one
    await start(bot, ", ".join(MACHINES[:5]))
    await scores_in(bot, {1: 100_000_000, 4: 250_000_000})
    await approvals.approve_all(bot.db, GUILD, "1", by=COMMISSIONER.id, now=at(NIGHT, "21:00"))
    assert await me(4) == "Playoffs: champion 🏆"
    assert await me(1) == "Playoffs: 2nd place"
    # A past season's /stats keeps it.
    await setup.start_season(bot.db, GUILD, "Summer", date(2026, 4, 1), now=at(NIGHT, "23:00"))
    said = await invoke(stats.stats, stats, as_user(bot, PLAYERS[1], at(NIGHT, "23:30")),
                        player="P4", season="Spring")  # fmt: skip
    assert "Playoffs: champion 🏆" in said.text.split("\n")


async def test_r13_4_me_shows_tonights_playoff_scores(league: FakeBot) -> None:
    bot = await playoff_night(league)
    await start(bot, ", ".join(MACHINES[:5]))
    await scores.submit(bot.db, GUILD, PLAYERS[4].id, 1, 250_000_000, now=at(NIGHT, "20:00"))
    standings = Standings()
    said = await invoke(standings.me, standings, as_user(bot, PLAYERS[4], at(NIGHT, "20:05")))
    assert "- Game 1 · Attack from Mars: 250,000,000 · waiting for the commissioner" in said.text
    refused = await invoke(COMMANDS_NIGHT, Commissioner(), as_user(bot, COMMISSIONER,
                           at(NIGHT, "20:10")), group="B1")  # fmt: skip
    assert refused.text == "There is no group B1 on playoff night."
