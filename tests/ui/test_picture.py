"""The standings picture: a valid PNG of the designed size, that
changes with the standings and stays under Discord's upload limit at 300 players."""

from __future__ import annotations

import io
import random
import unicodedata

from PIL import Image

from bot.ui.picture import (
    DIVISION_TOP,
    ELLIPSIS,
    TABLE_TOP,
    WIDTH,
    Line,
    Picture,
    fit,
    font,
    leaders,
    render,
    size_of,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
UPLOAD_LIMIT = 10 * 1024 * 1024  # Discord's per-file limit for a bot


def league(players: int, *, weeks: int = 10, divisions: bool = False, seed: int = 1) -> Picture:
    rnd = random.Random(seed)
    scored = []
    for i in range(players):
        weekly = tuple(rnd.randint(0, 12) for _ in range(weeks))
        scored.append((sum(weekly), f"Player {i + 1}", weekly))
    scored.sort(key=lambda s: -s[0])
    parts = [("A", scored[: players // 2]), ("B", scored[players // 2 :])] if divisions else [
        ("", scored)]  # fmt: skip
    lines = [Line(place, name, points, division, weekly)
             for division, part in parts
             for place, (points, name, weekly) in enumerate(part, start=1)]  # fmt: skip
    return Picture("Standings after week 10", tuple(range(1, weeks + 1)), tuple(lines))


def decoded(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    image = Image.open(io.BytesIO(data))
    image.load()  # decodes every pixel: a truncated file fails here
    assert image.format == "PNG"
    return image


def test_a_picture_is_a_valid_png_as_wide_as_a_phone_shows_and_portrait() -> None:
    picture = league(30)
    image = decoded(render(picture))
    assert image.size == size_of(picture)
    assert image.width == WIDTH
    assert image.height > image.width  # portrait, for a phone


def test_the_picture_changes_when_the_standings_change() -> None:
    before = league(30)
    first, *rest = before.lines
    after = Picture(
        before.title,
        before.weeks,
        (
            Line(
                1,
                first.name,
                first.points + 3,
                first.division,
                (*first.weekly[:-1], first.weekly[-1] + 3),
            ),
            *rest,
        ),
    )
    assert render(before) == render(before)  # the same standings, the same bytes
    assert decoded(render(after)).tobytes() != decoded(render(before)).tobytes()


def test_a_renamed_player_changes_the_picture() -> None:
    before = league(30)
    first, *rest = before.lines
    renamed = Picture(
        before.title,
        before.weeks,
        (Line(1, "Somebody Else", first.points, "", first.weekly), *rest),
    )
    assert render(renamed) != render(before)


def test_300_players_fit_one_upload_and_keep_the_table_short() -> None:
    big = league(300, divisions=True)
    data = render(big)
    assert len(data) < UPLOAD_LIMIT
    image = decoded(data)
    # two divisions of DIVISION_TOP rows each: no taller than 30 players with no divisions
    assert image.height <= size_of(league(30)).__getitem__(1) + 400
    assert len(leaders(big.lines)) == 8
    assert {line.division for line in leaders(big.lines)} == {"A", "B"}


def test_the_table_shows_the_top_and_how_many_more() -> None:
    small, large = size_of(league(TABLE_TOP)), size_of(league(TABLE_TOP + 50))
    assert large[1] - small[1] == 56  # one "+50 more" row, not 50 rows
    assert DIVISION_TOP < TABLE_TOP


def test_long_names_are_shortened_with_an_ellipsis_between_characters() -> None:
    face = font(40)
    name = "Zoë Ångström-Łukasiewicz the Magnificent Flipper of Pinball Row"
    short = fit(name, face, 400)
    assert short.endswith(ELLIPSIS)
    assert name.startswith(short[:-1])
    assert face.getlength(short) <= 400
    assert fit("Ann Lee", face, 400) == "Ann Lee"
    combining = "Zoe\u0308" * 30  # e + combining diaeresis: never split
    cut = fit(combining, face, 300)[:-1]
    assert combining.startswith(cut)
    assert not unicodedata.combining(combining[len(cut)])  # the next one starts a letter


def test_a_season_with_no_nights_yet_still_draws() -> None:
    picture = Picture("Standings", (), (Line(1, "Ann", 0), Line(2, "Bob", 0)))
    assert decoded(render(picture)).width == WIDTH
    assert decoded(render(Picture("Standings", (), ()))).width == WIDTH
