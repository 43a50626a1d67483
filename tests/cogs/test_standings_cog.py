"""/standings, /groups and /me (R8, R9, R11), and messages within Discord's limits."""

from __future__ import annotations

import io
import re
from datetime import date

import pytest
from PIL import Image

from bot.components import picture
from bot.services import approvals, machine_list, membership, picks, scores, setup
from bot.ui.picture import WIDTH
from cogs.money import money
from cogs.standings.standings_cog import Standings
from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.examples import Example
from tests.cogs.fakes import (
    ANNOUNCEMENTS,
    GUILD,
    FakeBot,
    FakeMember,
    click,
    invoke,
    private_message,
)
from tests.cogs.league_play import MACHINES, discord_id, lock, play_week, snapshot
from tests.moments import SETTING_AT

# How the tests that go over every command invoke these (tests/cogs/examples.py).
EXAMPLES = [
    Example("standings", Standings(), "standings", reads_first=["quick read"]),
    Example("groups", Standings(), "groups", reads_first=["quick read"]),
    Example("me", Standings(), "me"),
]

COG = Standings()
MONDAY = at(date(2026, 1, 5))
# Week 1, every game: P1 300M, P2 200M, P3 100M and the same in group 2.
# R5.2: 300 > 200 + 100 is false, so the close point goes to third: 3-2-1 on
# every game, MP 15, 10, 5. No bonus in weeks 1-2 (R7.2): league points = MP.
WEEK_1 = {1: 300_000_000, 2: 200_000_000, 3: 100_000_000,
          4: 300_000_000, 5: 200_000_000, 6: 100_000_000}  # fmt: skip


LEGEND = "pts league points · x bonus multiplier for the next night"


def row(rank: int, name: str, points: int, nights: int, x: int = 1) -> str:
    """A standings line; `nights` are the picture's and /me's, not the line's."""
    return f"{rank}. {name} · {points} pts · x{x}"


def table(title: str, *rows: str) -> str:
    """A one-page standings embed as a phone shows it."""
    return "\n".join([f"{title} · Spring", *rows, LEGEND])


# --- /standings ---------------------------------------------------------------------------


async def test_standings_before_any_night_rank_by_skill(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[6], MONDAY))
    assert said.deferred is False  # acknowledged at once, publicly, then filled in
    assert [r.ephemeral for r in said.replies] == [False]  # a public post
    # R11.1: no points or TNS yet, so skill decides: P1 (10) … P6 (5).
    assert said.text == table("Standings", *(row(n, f"P{n}", 0, 0) for n in range(1, 7)))


async def test_standings_after_a_night(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK_1)
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[6], at(date(2026, 1, 8))))
    # R11.1: points first; P1 and P4 tie on points and TNS (same scores, same
    # par), so skill puts P1 (10) above P4 (7); likewise P2/P5 and P3/P6.
    assert said.text == table(
        "Standings",
        row(1, "P1", 15, 1), row(2, "P4", 15, 1), row(3, "P2", 10, 1),
        row(4, "P5", 10, 1), row(5, "P3", 5, 1), row(6, "P6", 5, 1),
    )  # fmt: skip


async def test_standings_carry_the_picture_and_it_follows_the_night(league: FakeBot) -> None:
    """The answer has the standings picture attached, on its last piece."""
    bot = league
    before = await invoke(COG.standings, COG, as_user(bot, PLAYERS[6], MONDAY))
    png = before.replies[-1].file
    assert png is not None and png.startswith(b"\x89PNG\r\n\x1a\n")
    assert Image.open(io.BytesIO(png)).width == WIDTH
    await play_week(bot, 1, WEEK_1)
    after = await invoke(COG.standings, COG, as_user(bot, PLAYERS[6], at(date(2026, 1, 8))))
    assert after.replies[-1].file not in (None, png)  # the new points are drawn


async def test_a_refused_standings_has_no_picture(bot: FakeBot) -> None:
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY))
    assert [r.file for r in said.replies] == [None]


async def test_standings_of_a_division_before_divisions_is_refused(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY), division="A")
    assert said.text == "There are no divisions yet; they start at the division week."
    assert [r.ephemeral for r in said.replies] == [True]


async def test_standings_with_no_league_or_no_season_is_refused_privately(bot: FakeBot) -> None:
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY))
    assert said.text == (
        "This server has no league yet. The commissioner can start one with /league season setup."
    )
    assert [r.ephemeral for r in said.replies] == [True]
    await setup.create_league(bot.db, GUILD, "League", now=MONDAY)
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY), division="B")
    assert said.text == (
        "There is no season running. The commissioner can start one with /league season start."
    )
    assert said.deferred is None  # refused before any public acknowledgement
    assert [r.ephemeral for r in said.replies] == [True]


async def test_standings_by_division_once_divisions_are_formed(league: FakeBot) -> None:
    bot = league
    for n, skill in ((7, 4), (8, 3)):
        await membership.add_player(bot.db, GUILD, f"P{n}", discord_id=discord_id(n), skill=skill,
                                    now=MONDAY)  # fmt: skip
    await setup.change_setting(bot.db, GUILD, "division_week", 2, now=SETTING_AT)
    # 8 players: groups of 3, 3, 2 (R8.1). In the 2-player group 300M >= 3 x 100M:
    # the tripling point, 4-0 (R5.1), so P7 has 20 MP and P8 none.
    await play_week(bot, 1, {**WEEK_1, 7: 300_000_000, 8: 100_000_000}, ("1", "2", "3"))
    # R9.2: one week played, nobody won twice: nobody qualifies. R9.3: A holds
    # 8 // 2 = 4, filled by the highest-ranked: P7 (20), P1, P4 (15), P2 (10).
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))),
                        division="A")  # fmt: skip
    assert [r.ephemeral for r in said.replies] == [False]
    assert said.text == table(
        "Division A standings",
        row(1, "P7", 20, 1), row(2, "P1", 15, 1),
        row(3, "P4", 15, 1), row(4, "P2", 10, 1),
    )  # fmt: skip
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))),
                        division="B")  # fmt: skip
    assert said.text == table(
        "Division B standings",
        row(1, "P5", 10, 1), row(2, "P3", 5, 1),
        row(3, "P6", 5, 1), row(4, "P8", 0, 1),
    )  # fmt: skip
    # The picture is the division's too, not the whole league's under its title.
    title = "Division B standings"
    assert said.replies[-1].file == await picture.standings_png(bot.db, GUILD, title, "B")
    assert said.replies[-1].file != await picture.standings_png(bot.db, GUILD, title)


async def test_a_long_standings_pages_with_buttons(league: FakeBot) -> None:
    """One message, a phone screen a page; ◀ ▶ page through all 126 in
    order. A click on the public post answers the clicker alone; a click on that
    private page turns it in place; the ends of the list are bounds."""
    bot = league
    for n in range(1, 121):
        await membership.add_player(bot.db, GUILD, f"Newcomer {n:03}", discord_id=None, now=MONDAY)
    said = await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY))
    [post] = said.replies
    assert not post.ephemeral and post.file is not None and len(post.embeds) == 1
    assert post.embeds[0].footer.text == f"{LEGEND} · Page 1 of 7"
    back, forward = post.view.children  # type: ignore[union-attr]
    assert back.item.disabled and not forward.item.disabled  # type: ignore[attr-defined]
    lines = post.embeds[0].description.split("\n")  # type: ignore[union-attr]
    assert len(lines) == 18
    # A click on the public post: page 2 for the clicker alone, the post unchanged.
    clicker = as_user(bot, PLAYERS[2], MONDAY)
    clicked = await click(forward, clicker)
    [page] = clicked.replies
    assert page.ephemeral and page.embeds[0].footer.text.endswith("Page 2 of 7")  # type: ignore[union-attr]
    lines += page.embeds[0].description.split("\n")  # type: ignore[union-attr]
    # Clicks on the private page turn it in place, to the last page and no further.
    view = page.view
    for number in range(3, 8):
        turn = as_user(bot, PLAYERS[2], MONDAY, message=private_message())
        turned = await click(view.children[1], turn)  # type: ignore[union-attr]
        assert turned.replies == [] and turned.edited[0].endswith(f"Page {number} of 7")
        lines += turned.edited[0].split("\n")[1:-1]
        view = turned.edited_views[0]
    assert view.children[1].item.disabled  # type: ignore[union-attr]
    last = await click(view.children[1], as_user(bot, PLAYERS[2], MONDAY,  # type: ignore[union-attr]
                                                 message=private_message()))  # fmt: skip
    assert last.edited[0].endswith("Page 7 of 7")  # past the end: still the last page
    back = await click(view.children[0], as_user(bot, PLAYERS[2], MONDAY,  # type: ignore[union-attr]
                                                 message=private_message()))  # fmt: skip
    assert back.edited[0].endswith("Page 6 of 7")
    ranks = [int(line.split(".")[0]) for line in lines]
    assert ranks == list(range(1, 127))
    # R11.1 with R8.2's Decision: unrated players sit where 5.5 would, so the
    # newcomers (in sign-up order) come after P5 (6) and before P6 (5).
    names = [line.split(". ", 1)[1].split(" · ")[0] for line in lines]
    newcomers = [f"Newcomer\u00a0{n:03}" for n in range(1, 121)]
    assert names == ["P1", "P2", "P3", "P4", "P5", *newcomers, "P6"]


# --- /groups ------------------------------------------------------------------------------


async def reseed(bot: FakeBot) -> None:
    """Skills out of sign-up order, and P3 unrated (5.5, R8.2)."""
    for name, skill in (("P1", 2), ("P2", 9), ("P3", None), ("P4", 7), ("P5", 6), ("P6", 9)):
        await membership.set_skill(bot.db, GUILD, name, skill)


async def test_groups_week_1_cut_by_skill_with_play_order(league: FakeBot) -> None:
    bot = league
    await reseed(bot)
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], MONDAY))
    assert [r.ephemeral for r in said.replies] == [False]
    # R8.2: by skill, ties in sign-up order: P2 (9), P6 (9), P4 (7), P5 (6),
    # P3 (unrated, 5.5), P1 (2); cut into groups of 3 from the top (R8.1).
    # R11.2: game 1 is played lowest rank first; before week 1 the rank is
    # the skill order (R11.1), so P4 starts group 1 and P2 plays last.
    assert said.text.split("\n")[:10] == [
        "Week 1 · Wednesday 07 January 2026",
        "**Group 1**",
        "P2, P6, P4",
        "Game 1 order: P4 → P6 → P2",
        "**Group 2**",
        "P5, P3, P1",
        "Game 1 order: P1 → P3 → P5",
        # Six working machines for five games: one veto each (R4.2).
        "**Picks**",
        "Each group will veto 1 machine(s):",
        "use /veto before 19:15.",
    ]
    # R3.1: every player still owes a pre-makeup score on every machine: on page 2.
    [reply] = said.replies
    page = await click(reply.view.children[1], as_user(bot, PLAYERS[1], MONDAY))  # type: ignore[union-attr]
    both = f"{said.text}\n{page.text}"
    assert page.text.startswith("Week 1 ·") and "Page 2 of 2" in page.text
    assert [n for n in range(1, 7) if f"\n**P{n}**: " in both] == [1, 2, 3, 4, 5, 6]
    assert both.count("Theatre of Magic") == 6 and both.count("Monster Bash") == 6


async def test_groups_after_week_1_list_only_pre_makeups_that_can_still_be_played_r3_1(
    league: FakeBot,
) -> None:
    """R3.1 (Decision): after week 1, only a machine added later (or a player who
    joined later) still owes pre-makeups; the groupings post lists only those."""
    bot = league
    await play_week(bot, 1, WEEK_1)
    later = at(date(2026, 1, 10))
    await machine_list.add_machine(bot.db, GUILD, "Funhouse", par=1_000_000_000, now=later)
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 12))))
    assert said.text.startswith("Week 2 ·")
    owed = said.text.split("**Pre-makeup scores still owed**\n")[1].split("\n")
    assert owed == [f"**P{n}**: Funhouse" for n in range(1, 7)]
    assert "Attack from Mars" not in said.text.split("still owed")[1]


async def test_groups_after_locking_show_the_games(league: FakeBot) -> None:
    bot = league
    await reseed(bot)
    await picks.add_pick(bot.db, GUILD, PLAYERS[3].id, "Theatre of Magic", now=MONDAY)
    await lock(bot)
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "19:20")))
    # Group 1 picked nothing: the veto falls on the first machine in league
    # order (R4.5). Group 2: P3's veto applies. Games in machine order (R4.6).
    assert said.text.split("\n")[1:13] == [
        "**Group 1**",
        "P2, P6, P4",
        "Game 1 order: P4 → P6 → P2",
        "1. Medieval Madness, 2. Twilight Zone,",
        "3. The Addams Family, 4. Monster Bash,",
        "5. Theatre of Magic",
        "**Group 2**",
        "P5, P3, P1",
        "Game 1 order: P1 → P3 → P5",
        "1. Attack from Mars,",
        "2. Medieval Madness, 3. Twilight Zone,",
        "4. The Addams Family, 5. Monster Bash",
    ]
    assert "use /veto" not in said.text


async def test_groups_of_week_2_follow_movement(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK_1)
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))), week=2)
    # R8.3: group 2's winner P4 swaps with group 1's loser P3. Ranks after
    # week 1: P1, P4, P2, P5, P3, P6 (R11.1); lowest rank starts game 1 (R11.2).
    assert said.text.split("\n")[:7] == [
        "Week 2 · Wednesday 14 January 2026",
        "**Group 1**",
        "P1, P2, P4",
        "Game 1 order: P2 → P4 → P1",
        "**Group 2**",
        "P3, P5, P6",
        "Game 1 order: P6 → P3 → P5",
    ]


@pytest.mark.parametrize(
    ("week", "message"),
    [
        (2, "Week 2's groups come from week 1's results; "
            "the commissioner must finalize week 1 first."),
        (11, "Week 11 is not a night of this season (1 to 10)."),
    ],
)  # fmt: skip
async def test_groups_of_a_week_not_known_yet(league: FakeBot, week: int, message: str) -> None:
    bot = league
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], MONDAY), week=week)
    assert said.text == message
    assert [r.ephemeral for r in said.replies] == [True]


async def test_groups_of_a_big_league_stay_within_discord_limits(league: FakeBot) -> None:
    bot = league
    for n in range(1, 121):
        await membership.add_player(bot.db, GUILD, f"Newcomer {n:03}", discord_id=None, now=MONDAY)
    said = await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], MONDAY))
    [reply] = said.replies  # one message; the fakes check it with the stand-in's limits
    assert reply.embeds[0].footer.text.startswith("Page 1 of ")  # type: ignore[union-attr]
    view = reply.view
    seen = said.text
    while not view.children[1].item.disabled:  # type: ignore[union-attr]
        page = await click(view.children[1], as_user(bot, PLAYERS[1], MONDAY,  # type: ignore[union-attr]
                                                     message=private_message()))  # fmt: skip
        seen += page.edited[0]
        view = page.edited_views[0]
    groups = re.findall(r"\*\*Group (\d+)\*\*", seen)
    assert groups == [str(n) for n in range(1, 43)]  # 126 players: 42 groups of 3 (R8.1)


# --- /me ----------------------------------------------------------------------------------


async def test_me_before_any_night(league: FakeBot) -> None:
    bot = league
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], MONDAY))
    assert [r.ephemeral for r in said.replies] == [True]
    assert said.text == (
        "**P1** · rank 1 · 0 league points over 0 night(s)\n"
        "Bonus multiplier for the next night: x1\n"
        "Pre-makeup nights used 0, left 3\n"
        "Dues paid $0.00, owed $0.00"
    )


async def test_me_after_a_night_with_dues(league: FakeBot) -> None:
    bot = league
    await play_week(bot, 1, WEEK_1)
    await money.record_dues(bot.db, GUILD, "P5", 1, by=COMMISSIONER.id, now=at(FIRST_NIGHT))
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))),
                        player=PLAYERS[2])  # fmt: skip
    # P2: second in group 1, 10 MP, stayed (R8.3); one night held, $6.00 dues owed (R10.1).
    assert said.text == (
        "**P2** · rank 3 · 10 league points over 1 night(s)\n"
        "Bonus multiplier for the next night: x1\n"
        "Pre-makeup nights used 0, left 3\n"
        "Dues paid $0.00, owed $6.00\n"
        "- Week 1: 10 MP, 10 league points, stayed"
    )
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[5], at(date(2026, 1, 8))))
    assert "Dues paid $6.00, owed $0.00" in said.text
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[4], at(date(2026, 1, 8))))
    assert said.text.endswith("- Week 1: 15 MP, 15 league points, won")  # moved up (R8.3)
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[3], at(date(2026, 1, 8))))
    assert said.text.endswith("- Week 1: 5 MP, 5 league points, down")


async def test_me_on_league_night_lists_tonights_scores_and_where_each_stands(
    league: FakeBot,
) -> None:
    """A player sees which of tonight's scores wait, were approved or rejected."""
    bot = league
    await lock(bot)
    night = at(FIRST_NIGHT, "20:00")
    first = await scores.submit(bot.db, GUILD, discord_id(1), 1, 120_000_000, now=night)
    typo = await scores.submit(bot.db, GUILD, discord_id(1), 2, 9, now=night)
    await scores.submit(bot.db, GUILD, discord_id(1), 3, 75_500_000, now=night)
    await approvals.decide_score(bot.db, GUILD, first.score.id, True, by=COMMISSIONER.id, now=night)
    await approvals.decide_score(
        bot.db, GUILD, typo.score.id, False, by=COMMISSIONER.id, now=night, reason="Too low?"
    )
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], at(FIRST_NIGHT, "21:00")))
    assert [r.ephemeral for r in said.replies] == [True]
    games = [g for g in said.text.split("\n") if g.startswith("- Game")]
    assert said.text.split("\n")[4] == "Tonight's scores:"
    assert games == [
        f"- Game 1 · {MACHINES[1]}: 120,000,000 · approved",
        f"- Game 2 · {MACHINES[2]}: 9 · rejected: Too low?",  # the reason, to them only
        f"- Game 3 · {MACHINES[3]}: 75,500,000 · waiting for the commissioner",
    ]
    # The next day the night is over: /me no longer lists it.
    after = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], at(date(2026, 1, 8))))
    assert "Tonight" not in after.text
    # Another player looking at P1 sees the rejection but not its reason.
    theirs = await invoke(
        COG.me,
        COG,
        as_user(bot, PLAYERS[2], at(FIRST_NIGHT, "21:00")),
        player=FakeMember(PLAYERS[1].id, "P1"),
    )
    assert f"- Game 2 · {MACHINES[2]}: 9 · rejected" in theirs.text
    assert "Too low" not in theirs.text
    # Another player's /me shows their own night, here nothing submitted.
    other = await invoke(COG.me, COG, as_user(bot, PLAYERS[2], at(FIRST_NIGHT, "21:00")))
    assert "Tonight" not in other.text


async def test_me_for_someone_who_is_not_a_player(league: FakeBot) -> None:
    bot = league
    stranger = FakeMember(PLAYERS[7].id, "Stranger")
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[1], MONDAY), player=stranger)
    assert said.text == "Stranger is not a player in this league."
    assert [r.ephemeral for r in said.replies] == [True]
    said = await invoke(COG.me, COG, as_user(bot, PLAYERS[7], MONDAY))
    assert said.text == "You are not a player in this league. Ask the commissioner to add you."


async def test_reading_commands_store_nothing_but_week_1_groups(league: FakeBot) -> None:
    bot = league
    await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], MONDAY))  # seeds week 1 (R8.2)
    before = await snapshot(bot)
    await invoke(COG.groups, COG, as_user(bot, PLAYERS[1], MONDAY))
    await invoke(COG.standings, COG, as_user(bot, PLAYERS[1], MONDAY))
    await invoke(COG.me, COG, as_user(bot, PLAYERS[1], MONDAY))
    assert await snapshot(bot) == before


async def test_the_weekly_standings_post_attaches_the_picture(league: FakeBot) -> None:
    """The outbox's 'standings' post carries the PNG, drawn when sent."""
    await play_week(league, 1, WEEK_1)
    await league.outbox.flush()
    sent = league.channels[ANNOUNCEMENTS].sent
    posts = [m for m in sent if m.embeds and m.embeds[0].title == "Standings · Spring"]
    assert posts and posts[-1].files[0].startswith(b"\x89PNG\r\n\x1a\n")
    assert all(m.files == [] for m in sent if m not in posts)
    assert "1. P1 · 15 pts · x1" in posts[-1].embeds[0].description  # type: ignore[operator]
