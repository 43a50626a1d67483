"""/league money dues for several players at once, and /league money summary (R10.1)."""

from __future__ import annotations

from cogs.money import money
from tests.cogs.conftest import COMMISSIONER, as_user
from tests.cogs.fakes import GUILD, FakeBot
from tests.cogs.league_play import lock, snapshot
from tests.cogs.test_commissioner_cog import COG, TONIGHT, run


async def test_r10_1_dues_of_several_players_name_who_paid_what(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    said = await run(bot, "money dues", players="P1, p2 ,P3", week=1)
    assert said.text == "Week 1: dues $18.00, pot $9.00.\nPaid: P1 $6.00, P2 $6.00, P3 $6.00."
    said = await run(bot, "money dues", players="P4,P5", week=1, amount="7.50")
    assert "Paid: P4 $7.50, P5 $7.50." in said.text


async def test_r10_1_one_bad_name_refuses_all_and_records_nothing(league: FakeBot) -> None:
    bot = league
    await lock(bot)
    await run(bot, "money dues", players="P2", week=1)
    before = await snapshot(bot)
    for players, message in [
        ("P1, Nobody, P3", "There is no player called 'Nobody'"),
        ("P1, P2", "P2's dues for week 1 are already recorded; nothing was recorded."),
        ("P1, p1", "P1 is named twice"),
        (" , ", "Name at least one player."),
    ]:
        said = await run(bot, "money dues", players=players, week=1)
        assert message in said.text and all(r.ephemeral for r in said.replies)
        assert await snapshot(bot) == before


async def test_dues_autocomplete_completes_the_last_name_keeping_the_others(
    league: FakeBot,
) -> None:
    bot = league
    interaction = as_user(bot, COMMISSIONER, TONIGHT)
    choices = await COG.dues_players(interaction, "P1, p")  # type: ignore[arg-type]
    assert [c.value for c in choices][:3] == ["P1, P1", "P1, P2", "P1, P3"]
    choices = await COG.dues_players(interaction, "P1,P2, 6")  # type: ignore[arg-type]
    assert [c.value for c in choices] == ["P1, P2, P6"]


async def test_r10_1_summary_shows_pot_fund_and_each_players_paid_and_owed(
    league: FakeBot,
) -> None:
    bot = league
    await lock(bot)
    await run(bot, "money dues", players="P1, P2", week=1)
    await run(bot, "money fund", amount="10")
    said = await run(bot, "money summary")
    lines = said.text.splitlines()
    assert lines[0] == "**Money · week 1**"
    assert lines[1] == "Pot $6.00 · season fund $16.00"  # $12 dues: $6 pot, $6 + $10 fund
    assert "P3: paid $0.00, owes $6.00" in lines  # in a group in week 1, no dues recorded
    assert "P1: paid $6.00" in lines
    assert lines.index("P3: paid $0.00, owes $6.00") < lines.index("P1: paid $6.00")


async def test_summary_for_sixty_players_stays_within_discords_message_limit(
    league: FakeBot,
) -> None:
    from bot.services import membership

    bot = league
    for n in range(7, 61):
        await membership.add_player(
            bot.db, GUILD, f"Player Number {n}", discord_id=None, now=TONIGHT
        )
    found = await money.summary(bot.db, GUILD)
    assert len(found.players) == 60
    said = await run(bot, "money summary")
    assert all(len(r.content) <= 2000 for r in said.replies)
    assert "Player Number 60: paid $0.00" in said.text


async def test_summary_of_a_week_not_in_the_season_is_refused(league: FakeBot) -> None:
    said = await run(league, "money summary", week=40)
    assert said.replies and all(r.ephemeral for r in said.replies)
    assert "Something went wrong" not in said.text
