"""The standings picture: the table and a chart of league points by
week, as PNG bytes, sized for a phone.

Pure: plain data in, bytes out; no discord, no database, no clock. It takes a
few tens of milliseconds of CPU, so callers run it off the event loop
(`bot/components/picture.py`).

Drawn with Pillow, not matplotlib: an eighth of the install (22 vs 173 MB), a tenth of the
import time, and the table is text anyway. The font is DejaVu Sans, shipped in
`bot/ui/fonts/`: Pillow's bundled Aileron has no Ł, Å or ë, and names have them.

What a picture shows, so that 300 players stay legible on a phone:
- the table: the top `TABLE_TOP` of the league (or `DIVISION_TOP` of each
  division), then "+N more" — the full list is the text answer beside it;
- the chart: cumulative league points by week for the leaders only,
  `CHART_LEADERS` lines (split between the divisions), each named in the key.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import accumulate
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.services.outcomes.standings import StandingRow

WIDTH = 1080  # px: a phone shows it full width
MARGIN = 48
TABLE_TOP = 20  # rows of a league with no divisions
DIVISION_TOP = 10  # rows of each division
CHART_LEADERS = 8  # lines in the chart (split evenly between divisions)
CHART_HEIGHT = 640
SCALE = 2  # the chart's lines are drawn this much larger, then smoothed down

TITLE_SIZE, TEXT_SIZE, SMALL_SIZE = 60, 40, 30
ROW = 56  # px per table row
BACKGROUND, INK, FAINT, RULE, STRIPE = "#ffffff", "#1d1d1f", "#6e6e73", "#d2d2d7", "#f2f2f7"
# Okabe-Ito's colour-blind-safe palette, then two more dark ones
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#8C564B")  # fmt: skip
ELLIPSIS = "…"


@dataclass(frozen=True)
class Line:
    """One player: their place, name, season points, division and the league
    points of each week of `Picture.weeks` (0 where they did not play)."""

    place: int
    name: str
    points: int
    division: str = ""
    weekly: tuple[int, ...] = ()


@dataclass(frozen=True)
class Picture:
    title: str
    weeks: tuple[int, ...]
    lines: tuple[Line, ...]


def picture_of(
    title: str, rows: Sequence[StandingRow], weeks: Sequence[int], points: dict[int, dict[int, int]]
) -> Picture:
    """The picture's data from the standings and each player's league points by
    week (`points[player id][week]`)."""
    return Picture(
        title,
        tuple(weeks),
        tuple(
            Line(r.rank, r.player.name, r.league_points, r.division,
                 tuple(points.get(r.player.id, {}).get(w, 0) for w in weeks))
            for r in rows
        ),
    )  # fmt: skip


FONT = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"  # Bitstream Vera licence, beside it


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, size)


def fit(text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, or as much of it as fits in `width` px followed by an ellipsis.
    Cut between characters only, never leaving a combining mark without its letter."""
    if face.getlength(text) <= width:
        return text
    cut = len(text)
    while cut > 0:
        cut -= 1
        while cut > 0 and unicodedata.combining(text[cut]):
            cut -= 1  # the mark goes with the letter before it
        shortened = text[:cut].rstrip() + ELLIPSIS
        if face.getlength(shortened) <= width:
            return shortened
    return ELLIPSIS


def sections(lines: Sequence[Line]) -> list[tuple[str, list[Line]]]:
    """The table's sections: one per division (A, B), or the whole league."""
    divisions = sorted({line.division for line in lines})
    return [(d, [line for line in lines if line.division == d]) for d in divisions] or [("", [])]


def leaders(lines: Sequence[Line]) -> list[Line]:
    """The chart's lines: the top of each division, `CHART_LEADERS` in all."""
    parts = sections(lines)
    each = max(1, CHART_LEADERS // len(parts))
    return [line for _, members in parts for line in members[:each]]


def _table_height(lines: Sequence[Line]) -> int:
    parts = sections(lines)
    top = DIVISION_TOP if len(parts) > 1 or parts[0][0] else TABLE_TOP
    height = 0
    for division, members in parts:
        height += ROW * (1 + bool(division))  # the heading and the column names
        height += ROW * max(1, min(top, len(members)))
        height += ROW if len(members) > top else 0  # "+N more"
        height += ROW // 2
    return height


def _key_height(count: int) -> int:
    return ROW * ((count + 1) // 2)


def size_of(picture: Picture) -> tuple[int, int]:
    """The picture's width and height in px."""
    height = MARGIN + TITLE_SIZE + ROW // 2 + _table_height(picture.lines)
    height += ROW + CHART_HEIGHT + ROW // 2 + _key_height(len(leaders(picture.lines))) + MARGIN
    return WIDTH, height


def render(picture: Picture) -> bytes:
    """The picture as PNG bytes."""
    image = Image.new("RGB", size_of(picture), BACKGROUND)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, MARGIN), fit(picture.title, font(TITLE_SIZE), WIDTH - 2 * MARGIN),
              font=font(TITLE_SIZE), fill=INK)  # fmt: skip
    y = MARGIN + TITLE_SIZE + ROW // 2
    y = _draw_table(draw, picture.lines, y)
    _draw_chart(image, draw, picture, y)
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def _right(draw: ImageDraw.ImageDraw, x: int, y: int, text: str, size: int, fill: str) -> None:
    draw.text((x - font(size).getlength(text), y), text, font=font(size), fill=fill)


def _draw_table(draw: ImageDraw.ImageDraw, lines: Sequence[Line], y: int) -> int:
    parts = sections(lines)
    top = DIVISION_TOP if len(parts) > 1 or parts[0][0] else TABLE_TOP
    text, small = font(TEXT_SIZE), font(SMALL_SIZE)
    place_right, name_left, points_right = MARGIN + 70, MARGIN + 100, WIDTH - MARGIN
    name_width = points_right - 180 - name_left
    pad = (ROW - TEXT_SIZE) // 2
    for division, members in parts:
        if division:
            draw.text((MARGIN, y + pad), f"Division {division}", font=text, fill=INK)
            y += ROW
        _right(draw, place_right, y + pad + 6, "#", SMALL_SIZE, FAINT)
        draw.text((name_left, y + pad + 6), "Player", font=small, fill=FAINT)
        _right(draw, points_right, y + pad + 6, "Points", SMALL_SIZE, FAINT)
        draw.line((MARGIN, y + ROW - 2, WIDTH - MARGIN, y + ROW - 2), fill=RULE, width=2)
        y += ROW
        if not members:
            draw.text((name_left, y + pad), "No players yet", font=text, fill=FAINT)
            y += ROW
        for number, line in enumerate(members[:top]):
            if number % 2:
                draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + ROW - 1), fill=STRIPE)
            _right(draw, place_right, y + pad, str(line.place), TEXT_SIZE, INK)
            draw.text((name_left, y + pad), fit(line.name, text, name_width), font=text, fill=INK)
            _right(draw, points_right, y + pad, f"{line.points:,}", TEXT_SIZE, INK)
            y += ROW
        if len(members) > top:
            draw.text((name_left, y + pad), f"+{len(members) - top} more", font=text, fill=FAINT)
            y += ROW
        y += ROW // 2
    return y


def _ticks(highest: int) -> list[int]:
    """Round steps (1, 2, 5, 10, 20, 50, …) from 0 up to at least `highest`, at most six."""
    index, step = 0, 1
    while highest > 5 * step:
        index += 1
        step = (1, 2, 5)[index % 3] * 10 ** (index // 3)
    return list(range(0, -(-highest // step) * step + 1, step))


def _draw_chart(image: Image.Image, draw: ImageDraw.ImageDraw, picture: Picture, y: int) -> None:
    small = font(SMALL_SIZE)
    draw.text((MARGIN, y + (ROW - TEXT_SIZE) // 2), "League points by week", font=font(TEXT_SIZE),
              fill=INK)  # fmt: skip
    y += ROW
    shown = leaders(picture.lines)
    weeks = picture.weeks
    left, right = MARGIN + 90, WIDTH - MARGIN - 10
    top, bottom = y + 20, y + CHART_HEIGHT - 60
    if not weeks or not shown:
        draw.text((left, top + 40), "No finalized nights yet", font=font(TEXT_SIZE), fill=FAINT)
    else:
        totals = [list(accumulate(line.weekly)) for line in shown]
        ticks = _ticks(max(1, *(max(t, default=0) for t in totals)))
        high = ticks[-1] or 1

        def at(index: int, value: int) -> tuple[float, float]:
            span = max(1, len(weeks) - 1)
            x = left + (right - left) * (index / span if len(weeks) > 1 else 0.5)
            return x, bottom - (bottom - top) * value / high

        for tick in ticks:
            _, ty = at(0, tick)
            draw.line((left, ty, right, ty), fill=RULE, width=2)
            _right(draw, left - 14, int(ty) - SMALL_SIZE // 2 - 4, f"{tick:,}", SMALL_SIZE, FAINT)
        step = max(1, -(-len(weeks) // 10))  # at most about ten week labels
        for index in range(0, len(weeks), step):
            x, _ = at(index, 0)
            label = str(weeks[index])
            draw.text((x - small.getlength(label) / 2, bottom + 10), label, font=small, fill=FAINT)
        draw.text((right - small.getlength("week"), bottom + 10 + SMALL_SIZE), "week", font=small,
                  fill=FAINT)  # fmt: skip
        # the lines, drawn large and scaled down so that they are smooth
        box = (left - 10, top - 10, right + 10, bottom + 10)
        layer = Image.new("RGBA", ((box[2] - box[0]) * SCALE, (box[3] - box[1]) * SCALE))
        pen = ImageDraw.Draw(layer)
        for number, cumulative in reversed(list(enumerate(totals))):
            points = [((x - box[0]) * SCALE, (py - box[1]) * SCALE)
                      for x, py in (at(i, v) for i, v in enumerate(cumulative))]  # fmt: skip
            colour = COLOURS[number % len(COLOURS)]
            if len(points) > 1:
                pen.line(points, fill=colour, width=6 * SCALE, joint="curve")
            for px, py in points[-1:] if len(points) > 1 else points:
                r = 7 * SCALE
                pen.ellipse((px - r, py - r, px + r, py + r), fill=colour)
        layer = layer.resize((box[2] - box[0], box[3] - box[1]), Image.Resampling.LANCZOS)
        image.paste(layer, box[:2], layer)
    _draw_key(draw, picture, shown, y + CHART_HEIGHT + ROW // 2)


def _draw_key(draw: ImageDraw.ImageDraw, picture: Picture, shown: Sequence[Line], y: int) -> None:
    """Which colour is whom: two columns, 'place. name'."""
    text = font(SMALL_SIZE + 4)
    column = (WIDTH - 2 * MARGIN) // 2
    divisions = len({line.division for line in picture.lines}) > 1
    for number, line in enumerate(shown):
        x = MARGIN + column * (number % 2)
        row_y = y + ROW * (number // 2)
        colour = COLOURS[number % len(COLOURS)]
        draw.rounded_rectangle((x, row_y + 14, x + 36, row_y + 40), radius=6, fill=colour)
        label = f"{line.place}. {line.name}" if not divisions else (
            f"{line.division}{line.place}. {line.name}")  # fmt: skip
        draw.text((x + 50, row_y + 8), fit(label, text, column - 70), font=text, fill=INK)
