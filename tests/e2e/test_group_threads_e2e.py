"""A thread per group on league night, through the real bot and the loopback
Discord: with the setting on, picks locking makes each group a thread in the
announcements channel, opened with its games, its play order (R11.2) and the
pre-makeup scores its absent player stands on (R3.2); /score works in the
thread, and each score is posted there as it is approved. Without the
permission the night goes on and the status says what is missing."""

from __future__ import annotations

from pathlib import Path

from bot.demo_script import ABSENT, NIGHT, SCORES, at
from standin import CREATE_PUBLIC_THREADS, SEND_MESSAGES_IN_THREADS
from tests.e2e.demo_league import demo_league

THREADS = CREATE_PUBLIC_THREADS | SEND_MESSAGES_IN_THREADS


async def test_each_group_gets_a_thread_with_its_games_and_approved_scores_R3_2_R11_2(
    tmp_path: Path,
) -> None:
    async with demo_league(tmp_path) as league:
        standin, world, night = league.standin, league.world, league.night
        await night.set_up()
        koi = world.commissioner
        on = await night.run(koi, "setup-night", {"group_threads": True}, quiet=True)
        assert "Thread per group: on." in on.content
        assert "A thread per group: the bot's role lacks" in on.content  # not allowed yet
        standin.grant_bot(world.guild, THREADS)
        await night.afternoon()  # groupings, notices, vetoes, and picks lock at 19:15

        threads = sorted(standin.threads(world.announcements), key=lambda t: t["name"])
        assert [t["name"] for t in threads] == ["Week 1 · Group 1", "Week 1 · Group 2"]
        assert all(t["parent_id"] == str(world.announcements) for t in threads)
        openings = [standin.channel_messages(int(t["id"]))[0]["content"] for t in threads]
        lock = next(m["content"] for m in standin.channel_messages(world.announcements)
                    if "picks are locked" in m["content"])  # fmt: skip
        for opening in openings:
            games = opening.splitlines()[0].removeprefix("**Tonight's games:** ")
            assert games in lock  # the same games as the lock post, in order
            assert opening.splitlines()[1].startswith("Game 1 play order: ")
            assert opening.endswith("/score works here too.")
        with_absent = [o for o in openings if f"{ABSENT} is absent" in o]
        assert len(with_absent) == 1  # R3.2: his pre-makeups, shown to his group
        assert f"{ABSENT} is absent; their pre-makeup scores play for them:" in with_absent[0]
        assert "- Game 1 · " in with_absent[0]

        # /score in the group's own thread, as anywhere in the server.
        ann = world.players["Ann"]
        mine = next(t for t, o in zip(threads, openings, strict=True)
                    if "Ann" in o.splitlines()[1])  # fmt: skip
        machine = night.games_of("Ann")[0]
        standin.set_time(at(NIGHT, "19:40"))
        said = await standin.invoke(ann, "score", {"game": 1, "score": SCORES["Ann"][machine]},
                                    channel_id=int(mine["id"]))  # fmt: skip
        await said.done(timeout=10, quiet=0.05)
        assert said.ephemeral and "Submitted" in said.content
        await night.delivered()
        assert len(standin.channel_messages(int(mine["id"]))) == 1  # nothing before approval
        label = mine["name"].split(" · ")[1].removeprefix("Group ")
        await night.run(koi, "league night approve-all", {"group": label}, quiet=True)
        posted = [m["content"] for m in standin.channel_messages(int(mine["id"]))]
        assert posted[-1].startswith(f"✅ Ann · Game 1 · {machine}: ")
        # The commissioner corrects it (R12): the thread says so.
        await night.run(koi, "league score change", {
            "kind": "correction", "week": 1, "player": "Ann", "game": 1,
            "reason": "misread the display", "score": "1,000",
        }, quiet=True)  # fmt: skip
        posted = [m["content"] for m in standin.channel_messages(int(mine["id"]))]
        assert posted[-1] == f"✏️ Corrected: Ann · Game 1 · {machine}: 1,000"
        other = next(t for t in threads if t["id"] != mine["id"])
        assert len(standin.channel_messages(int(other["id"]))) == 1  # not the other group's


async def test_without_the_permission_the_night_goes_on_and_the_status_says_so(
    tmp_path: Path,
) -> None:
    async with demo_league(tmp_path) as league:
        standin, world, night = league.standin, league.world, league.night
        await night.set_up()
        koi = world.commissioner
        await night.run(koi, "setup-night", {"group_threads": True}, quiet=True)
        await night.afternoon()
        assert standin.threads(world.announcements) == []
        posts = [m["content"] for m in standin.channel_messages(world.announcements)]
        assert any("picks are locked" in p for p in posts)  # the lock post as ever
        status = await night.run(koi, "league admin status", quiet=True)
        assert (
            "- A thread per group: the bot's role lacks Create Public Threads or Send "
            "Messages in Threads in the announcements channel. Until then, groups get no "
            "thread on league night."
        ) in status.content
        assert "failed: 0" in status.content  # nothing refused is left for a resend
