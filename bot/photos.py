"""A photo of a score display, made safe to keep and show: the bytes must be a
PNG, JPEG or WebP picture of a sensible size; it is turned upright, downsized
and re-encoded from its pixels alone, so nothing of the file but the picture
survives (no EXIF, GPS, XMP, ICC profile, comments or text chunks).

Pure: bytes in, a `Photo` out, or an `InputError` that says what to send
instead. It takes a hundred milliseconds of CPU or more, so the bot runs it in
a worker thread of its own (cogs/scores/scores_cog.py), one photo at a time: a burst of
photos never holds several decoded pictures in memory at once.
"""

from __future__ import annotations

import io
import math
import warnings

from PIL import Image, ImageOps, UnidentifiedImageError

from bot.models import Photo
from bot.parsing import InputError

MAX_BYTES = 10 * 1024 * 1024  # what a member may upload to a server without boosts
MAX_PIXELS = 40_000_000  # a JPEG: more is a decompression bomb, not a phone photo
MAX_LOSSLESS_PIXELS = 20_000_000  # a PNG or WebP (a 6K screen's screenshot), decoded whole
LONGEST_SIDE = 1600  # px: a score display stays sharp; a season of photos stays small
JPEG_QUALITY = 82
PNG_KEPT_UNDER = 1024 * 1024  # a screenshot stays a PNG (sharp text) while this small
FORMATS = ("PNG", "JPEG", "WEBP")

NOT_A_PHOTO = (
    "The photo must be a PNG, JPEG or WebP picture. An iPhone photo (HEIC): send a "
    "screenshot of it, or set Settings › Camera › Formats to Most Compatible."
)
TOO_BIG = "The photo must be at most 10 MB."
UNREADABLE = "The photo could not be read (the file is damaged or cut short). Take it again."


def too_many_pixels(width: int, height: int, source: str | None) -> str:
    limit = MAX_PIXELS if source == "JPEG" else MAX_LOSSLESS_PIXELS
    return (f"The photo is {width:,} × {height:,} pixels; at most "
            f"{limit // 1_000_000} megapixels for a {source or 'picture'}.")  # fmt: skip


def check_size(size: int) -> None:
    """Refuse a file by the size Discord gives for it, before it is downloaded."""
    if not 0 < size <= MAX_BYTES:
        raise InputError(TOO_BIG)


def clean(data: bytes) -> Photo:
    """The photo as the league keeps it, or a refusal that says what to send."""
    check_size(len(data))
    # (catch_warnings changes the process's filters for a moment: only for this
    # one category, which only Pillow's opening of a picture raises)
    with warnings.catch_warnings():
        # Pillow warns (and past twice its limit refuses) on huge pictures: a bomb.
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        try:
            image = Image.open(io.BytesIO(data), formats=FORMATS)
        except UnidentifiedImageError:
            raise InputError(NOT_A_PHOTO) from None
        except (Image.DecompressionBombWarning, Image.DecompressionBombError):
            raise InputError(f"The photo has more than {MAX_PIXELS // 1_000_000} "
                             "megapixels.") from None  # fmt: skip
        except (OSError, ValueError, SyntaxError):
            raise InputError(UNREADABLE) from None
        with image:
            width, height = image.size  # read from the header: nothing decoded yet
            source = image.format
            limit = MAX_PIXELS if source == "JPEG" else MAX_LOSSLESS_PIXELS
            if width * height > limit:
                raise InputError(too_many_pixels(width, height, source))
            try:
                if source == "JPEG":  # decoded at 1/2, 1/4 or 1/8 when that is still enough
                    ratio = LONGEST_SIDE / max(width, height)
                    image.draft(None, (math.ceil(width * ratio), math.ceil(height * ratio)))
                image.load()
            except (OSError, ValueError, SyntaxError, EOFError):
                raise InputError(UNREADABLE) from None
            plain = _plain_mode(image)
            # downsized first, in place: every copy after this one is small
            plain.thumbnail((LONGEST_SIDE, LONGEST_SIDE), Image.Resampling.LANCZOS)
            try:
                upright = ImageOps.exif_transpose(plain)
            except Exception:  # a damaged EXIF block: the picture as it is stored
                upright = plain.copy()
    return _encode(upright, keep_png=source == "PNG")


def _plain_mode(image: Image.Image) -> Image.Image:
    """RGB, RGBA or L (a palette or 16-bit picture converted, so that downsizing
    smooths it): the image itself when it is one already."""
    alpha = image.mode in ("RGBA", "LA", "PA", "RGBa", "La") or (
        image.mode == "P" and "transparency" in image.info
    )
    wanted = "L" if image.mode in ("1", "L") else "RGBA" if alpha else "RGB"
    return image if image.mode == wanted else image.convert(wanted)


def _pixels_only(image: Image.Image) -> Image.Image:
    """A new image of the same pixels whose `info` (where Pillow keeps EXIF, XMP,
    ICC profiles, comments and text) is empty: nothing else is ever saved."""
    return Image.frombytes(image.mode, image.size, image.tobytes())


def _flattened(image: Image.Image) -> Image.Image:
    """Transparency on white, for a JPEG."""
    if image.mode != "RGBA":
        return image
    white = Image.new("RGB", image.size, "white")
    white.paste(image, mask=image.getchannel("A"))
    return white


def _encode(image: Image.Image, *, keep_png: bool) -> Photo:
    plain = _pixels_only(image)
    if keep_png:
        out = io.BytesIO()
        plain.save(out, "PNG", optimize=False, compress_level=6)
        if out.tell() <= PNG_KEPT_UNDER:
            return Photo(out.getvalue(), "png", *plain.size)
    out = io.BytesIO()
    _flattened(plain).save(out, "JPEG", quality=JPEG_QUALITY)
    return Photo(out.getvalue(), "jpeg", *plain.size)
