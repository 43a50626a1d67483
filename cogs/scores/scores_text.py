"""What a player reads about their scores: a score submitted, several from the
form, its photo."""

from __future__ import annotations

from bot.services.outcomes.scores import ScoreView


def score_pending(view: ScoreView) -> str:
    """A submitted score. Who submitted it for another player is a mention of their
    Discord id, which Discord shows as the real member: a display name can be copied."""
    submitter = view.score.submitted_by
    by = "" if submitter == view.player.discord_id else f" (submitted by <@{submitter}>)"
    return (f"{view.where} · Game {view.game.number} · "
            f"{view.game.machine}\n**{view.player.name}**: {view.score.score:,}{by}\n"
            f"Waiting for the commissioner.{photo_line(view)}")  # fmt: skip


def scores_pending(views: list[ScoreView]) -> str:
    """Several scores submitted at once (the score form): a line each, for a phone."""
    if len(views) == 1:
        return "Submitted:\n" + score_pending(views[0])
    first = views[0]
    where = first.where[:1].lower() + first.where[1:]  # "week 3 · Group 2" mid-sentence
    lines = [f"Submitted {len(views)} scores for {where}, "
             "waiting for the commissioner:"]  # fmt: skip
    lines += [f"- Game {v.game.number} · {v.game.machine} · **{v.player.name}**: {v.score.score:,}"
              for v in views]  # fmt: skip
    return "\n".join(lines)


def photo_line(view: ScoreView) -> str:
    """The score's photo: the league's copy (its file's details removed), or for
    a score sent before copies were kept, Discord's link, which may have expired."""
    if view.photo:
        return "\nPhoto kept, without its location or other details."
    if view.score.photo_url:
        return f"\nPhoto (old link, may have expired): {view.score.photo_url}"
    return ""
