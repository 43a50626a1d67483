"""/league score audit: who changed which score, when and why (R12.4)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.cogs.conftest import COMMISSIONER, FIRST_NIGHT, PLAYERS, as_user, at
from tests.cogs.fakes import FakeBot, click, private_message
from tests.cogs.league_play import lock, snapshot, submit_all
from tests.cogs.test_commissioner_cog import TONIGHT, WEEK_1, announced, private, run

KOI = f"<@{COMMISSIONER.id}>"  # Discord shows a mention as the member's name


async def changed(bot: FakeBot) -> FakeBot:
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    await run(bot, "score change", when=TONIGHT, kind="penalty", week=1, player="P1", game=1,
              reason="slam tilt")  # fmt: skip
    await run(bot, "score change", when=at(FIRST_NIGHT, "20:05"), kind="correction", week=1,
              player="P2", game=2, score="250M", reason="typo")  # fmt: skip
    return bot


async def test_r12_4_audit_lists_every_change_newest_first(league: FakeBot) -> None:
    bot = await changed(league)
    said = await run(bot, "score audit", when=at(FIRST_NIGHT, "21:00"))
    assert said.text.split("\n") == [
        "Score changes, newest first",
        f"Wed 07 Jan 20:05 · {KOI}",
        "**P2**, week 1 game 2",
        "200,000,000 → 250,000,000 (correction)",
        "“typo”",
        f"Wed 07 Jan 20:00 · {KOI}",
        "**P1**, week 1 game 1",
        "300,000,000 → 0 (penalty)",
        "“slam tilt”",
    ]
    assert private(said) and announced(bot) == []
    assert said.replies[0].view is None  # one page: no buttons


async def test_r12_4_audit_filters_by_player_and_week(league: FakeBot) -> None:
    bot = await changed(league)
    said = await run(bot, "score audit", player="p1")
    assert said.text.split("\n")[1:] == [
        f"Wed 07 Jan 20:00 · {KOI}", "**P1**, week 1 game 1", "300,000,000 → 0 (penalty)",
        "“slam tilt”",
    ]  # fmt: skip
    said = await run(bot, "score audit", week=1, player="P2")
    assert len(said.text.split("\n")) == 5 and "**P2**, week 1 game 2" in said.text


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"player": "Nobody"}, "There is no player called 'Nobody' in this league."),
        ({"week": 11}, "Week 11 is not a night of this season (1 to 10)."),
        ({"week": 2}, "No score changes match for week 2."),
        ({"week": 1, "player": "P3"}, "No score changes match for week 1 and P3."),
    ],
)
async def test_r12_4_audit_refusals(league: FakeBot, options: dict[str, Any], message: str) -> None:
    bot = await changed(league)
    before = await snapshot(bot)
    said = await run(bot, "score audit", **options)
    assert said.text == message and private(said)
    assert await snapshot(bot) == before


async def test_r12_4_nothing_changed_yet(league: FakeBot) -> None:
    said = await run(league, "score audit")
    assert said.text == "No score changes match this season." and private(said)


async def test_r12_4_a_long_trail_pages_newest_first(league: FakeBot) -> None:
    """The whole trail, a phone screen a page, with ◀ ▶ on the private reply;
    the buttons stay the commissioner's."""
    bot = league
    await lock(bot)
    await submit_all(bot, 1, WEEK_1)
    for n in range(30):
        await run(bot, "score change", when=at(FIRST_NIGHT, f"20:{n:02d}"), kind="correction",
                  week=1, player="P4", game=1 + n % 5, score=str(1000 + n),
                  reason=f"change {n} " + "x" * 80)  # fmt: skip
    said = await run(bot, "score audit", week=1, player="P4")
    [reply] = said.replies
    assert reply.ephemeral and reply.embeds[0].footer.text == "Page 1 of 10"  # type: ignore[union-attr]
    seen, view = said.text, reply.view
    # A player's click is refused, privately, and shows nothing of the trail.
    refused = await click(view.children[1], as_user(bot, PLAYERS[1], TONIGHT))  # type: ignore[union-attr]
    assert refused.text == "Only the commissioner can do that." and private(refused)
    while not view.children[1].item.disabled:  # type: ignore[union-attr]
        turned = await click(view.children[1], as_user(bot, COMMISSIONER, TONIGHT,  # type: ignore[union-attr]
                                                       message=private_message()))  # fmt: skip
        seen += "\n" + turned.edited[0]
        view = turned.edited_views[0]
    assert turned.edited[0].endswith("Page 10 of 10")
    times = re.findall(r"Wed 07 Jan (20:\d\d)", seen)
    assert times == [f"20:{n:02d}" for n in range(29, -1, -1)]  # all 30, newest first


async def test_r12_4_a_removed_players_changes_stay_findable(league: FakeBot) -> None:
    # R12.4: a player may be removed from the league; their history stays, and the
    # commissioner can still narrow the trail to them by name.
    bot = await changed(league)
    await run(bot, "player remove", name="P1")
    said = await run(bot, "score audit", player="P1")
    assert said.text.split("\n")[2] == "**P1\u00a0(removed)**, week 1 game 1"
