"""A score's photo (bot/photos.py): the time to check and clean one (in the worker
thread `/score` hands it to, after the acknowledgement), the size of the copy the
league keeps, and the memory a large one takes; and the biggest scorecard's size
before and after fitting it into a message (cogs/scorecards/scorecards_text.py).

Photos are made here: a 12 MP phone JPEG (EXIF with GPS, sideways), the largest
photo taken (40 MP), a phone's PNG screenshot and an 8 MP PNG photo. The memory
a clean adds is measured in a fresh interpreter each (its peak RSS, beyond
what it held with the photo's bytes). Run: `python -m bench.photos`
(`--quick`: 2 runs).
"""

from __future__ import annotations

import io
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROWS = (
    ("12 MP phone JPEG", (4032, 3024), "JPEG"),
    ("40 MP JPEG (the most)", (7300, 5475), "JPEG"),
    ("phone screenshot PNG", (1170, 2532), "PNG"),
    ("8 MP PNG photo", (3264, 2448), "PNG"),
)


def photo(size: tuple[int, int], kind: str) -> bytes:
    """A picture with a photo's grain (noise over a gradient), as a camera saves it."""
    grain = Image.effect_noise(size, 24).convert("RGB")
    gradient = Image.linear_gradient("L").resize(size).convert("RGB")
    picture = Image.blend(gradient, grain, 0.35)
    out = io.BytesIO()
    if kind == "JPEG":
        exif = Image.Exif()
        exif[0x0112] = 6
        exif[0x8825] = {1: "N", 2: (40.0, 33.0, 3.0), 3: "W", 4: (74.0, 28.0, 1.0)}
        quality = 90 if size[0] * size[1] < 20_000_000 else 70  # under the 10 MB upload limit
        picture.save(out, "JPEG", quality=quality, exif=exif.tobytes())
    else:
        picture.save(out, "PNG")
    return out.getvalue()


def peak_rss_mb() -> float:
    """This process's peak resident memory (VmHWM: reset at exec, unlike ru_maxrss,
    which a child started from a large parent inherits)."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def one(path: str) -> int:
    """In a fresh interpreter: the memory cleaning one photo adds to what the
    process had with the photo's bytes in hand (as the bot has after the download)."""
    from bot import photos

    data = Path(path).read_bytes()
    before = peak_rss_mb()
    photos.clean(data)
    print(f"{peak_rss_mb() - before:.1f}")
    return 0


def added_memory(data: bytes) -> float:
    with tempfile.NamedTemporaryFile(suffix=".bin") as file:
        file.write(data)
        file.flush()
        done = subprocess.run([sys.executable, "-m", "bench.photos", "--one", file.name],
                              capture_output=True, text=True, check=True)  # fmt: skip
    return float(done.stdout)


def card_sizes() -> tuple[int, int]:
    """The 4 × 10 card of 64-character names, a photo on every waiting score sent by
    a group mate: its characters worded in full, and as it is posted."""
    from cogs.scorecards import scorecards_text
    from cogs.scorecards.scorecards_outcomes import WAITING, CardGame, CardLine, CardPhoto, CardView

    games = [CardGame(f"Game {g} · " + "M" * 64, [
        CardLine(f"{p} " + "N" * 62, 10**13 - g * 10 - p, WAITING, None, f"s{g}{p}",
                 1_299_999_999_999_999_999, photo=CardPhoto(1_300_000_000_000_000_000 + g * 10 + p))
        for p in range(4)], str(g)) for g in range(1, 11)]  # fmt: skip
    card = CardView(1, "Week 10 · Division B · Group 12", games, 1)
    where = (1_234_567_890_123_456_789, 1_234_567_890_123_456_780)
    full = scorecards_text._total(
        card.title, scorecards_text._fields(card, where, scorecards_text.STYLES[0]), ""
    )
    posted = sum(len(e) for e in scorecards_text.card_embeds(card, *where))
    return full, posted


def main(argv: list[str]) -> int:
    if argv[:1] == ["--one"]:
        return one(argv[1])
    runs = 2 if "--quick" in argv else 7
    from bot import photos

    print(f"score photos (bot/photos.py), median of {runs} runs")
    print(f"{'measure':<40} {'value':>10}")
    for name, size, kind in ROWS:
        data = photo(size, kind)
        times, kept = [], photos.clean(data)
        for _ in range(runs):
            started = time.perf_counter()
            kept = photos.clean(data)
            times.append((time.perf_counter() - started) * 1000)
        print(f"{f'{name}: sent (KiB)':<40} {len(data) / 1024:>10.1f}")
        print(f"{f'{name}: clean (ms)':<40} {statistics.median(times):>10.1f}")
        print(f"{f'{name}: kept (KiB, {kept.format})':<40} {len(kept.data) / 1024:>10.1f}")
        print(f"{f'{name}: memory added (MB)':<40} {added_memory(data):>10.1f}")
    full, posted = card_sizes()
    print(f"{'biggest card, worded in full (chars)':<40} {full:>10}")
    print(f"{'biggest card, as posted (chars)':<40} {posted:>10}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
