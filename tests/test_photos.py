"""A score's photo is checked by its bytes and kept without anything but its
pixels (bot/photos.py): what Pillow reads back, and the file's own structure."""

from __future__ import annotations

import io
import random
import struct

import pytest
from PIL import Image, PngImagePlugin

from bot import photos
from bot.parsing import InputError

XMP = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description '
       b'xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="40,33.05N"/>'
       b"</rdf:RDF></x:xmpmeta>")  # fmt: skip
ICC = b"\x00\x00\x01\x00fake-icc-profile-bytes" * 8
SECRETS = (b"Exif", b"GPS", b"PhoneMaker", b"adobe:ns:meta", b"fake-icc", b"secret", b"home")


def phone_jpeg(size: tuple[int, int] = (4032, 3024), orientation: int = 6) -> bytes:
    """A phone's JPEG: taken sideways (EXIF orientation 6: turn 90° clockwise to
    view), with its GPS position, maker, a comment, an ICC profile and XMP. The
    top-left corner is red, so where it ends up shows how the photo was turned."""
    image = Image.new("RGB", size, (20, 20, 20))
    image.paste((255, 0, 0), (0, 0, size[0] // 8, size[1] // 8))
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "PhoneMaker"
    exif[0x8825] = {1: "N", 2: (40.0, 33.0, 3.0), 3: "W", 4: (74.0, 28.0, 1.0)}
    out = io.BytesIO()
    image.save(out, "JPEG", exif=exif.tobytes(), comment=b"secret comment",
               icc_profile=ICC, xmp=XMP, quality=95)  # fmt: skip
    return out.getvalue()


def png_chunks(data: bytes) -> list[bytes]:
    """The chunk types of a PNG file, in order."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    kinds, at = [], 8
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        kinds.append(kind)
        at += 12 + length
    return kinds


def jpeg_markers(data: bytes) -> list[int]:
    """The JPEG's segment markers up to the image data (APPn, COM, DQT, …)."""
    markers, at = [], 2
    while at < len(data) and data[at] == 0xFF:
        marker = data[at + 1]
        markers.append(marker)
        if marker == 0xDA:  # start of scan: the picture itself follows
            break
        (length,) = struct.unpack(">H", data[at + 2 : at + 4])
        at += 2 + length
    return markers


def test_a_phone_jpeg_is_turned_upright_downsized_and_keeps_nothing_but_its_pixels() -> None:
    original = phone_jpeg()
    assert all(secret in original for secret in (b"PhoneMaker", b"adobe:ns:meta", b"secret"))
    photo = photos.clean(original)
    assert photo.format == "jpeg" and photo.extension == "jpg"
    # turned upright (portrait) and downsized to the longest side
    assert (photo.width, photo.height) == (1200, 1600)
    image = Image.open(io.BytesIO(photo.data))
    assert image.size == (1200, 1600)
    # the red corner was top-left as taken; turned 90° clockwise it is top-right
    assert image.getpixel((1190, 10))[0] > 200 and image.getpixel((10, 10))[0] < 60
    assert dict(image.getexif()) == {} and "icc_profile" not in image.info
    assert not {"exif", "xmp", "comment", "icc_profile"} & set(image.info)
    # no APP1 (EXIF, XMP), APP2 (ICC), APP13 or comment segment: APP0 (JFIF) only
    markers = jpeg_markers(photo.data)
    assert {0xE1, 0xE2, 0xED, 0xFE}.isdisjoint(markers) and 0xE0 in markers
    assert not any(secret in photo.data for secret in SECRETS)


def test_a_png_screenshot_stays_a_png_with_no_text_or_colour_profile_chunks() -> None:
    info = PngImagePlugin.PngInfo()
    info.add_text("Location", "home")
    info.add_itxt("Comment", "secret", zip=True)
    out = io.BytesIO()
    Image.new("RGB", (1170, 2532), (250, 120, 0)).save(out, "PNG", pnginfo=info, icc_profile=ICC)
    assert {b"tEXt", b"iTXt", b"iCCP"} <= set(png_chunks(out.getvalue()))
    photo = photos.clean(out.getvalue())
    assert photo.format == "png" and photo.extension == "png"
    assert max(photo.width, photo.height) == photos.LONGEST_SIDE
    assert set(png_chunks(photo.data)) == {b"IHDR", b"IDAT", b"IEND"}
    assert not any(secret in photo.data for secret in SECRETS)


def test_a_webp_becomes_a_jpeg_and_a_small_photo_keeps_its_size() -> None:
    out = io.BytesIO()
    exif = Image.Exif()
    exif[0x010F] = "PhoneMaker"
    Image.new("RGB", (800, 600), (0, 90, 200)).save(out, "WEBP", exif=exif.tobytes())
    assert b"PhoneMaker" in out.getvalue()
    photo = photos.clean(out.getvalue())
    assert (photo.format, photo.width, photo.height) == ("jpeg", 800, 600)
    assert b"PhoneMaker" not in photo.data


def test_a_transparent_png_too_large_to_stay_a_png_becomes_a_jpeg_on_white() -> None:
    """A PNG photo (grain everywhere) keeps no PNG's size: it is kept as a JPEG, its
    transparent half white."""
    grain = Image.frombytes("RGB", (1600, 1200), random.Random(7).randbytes(1600 * 1200 * 3))
    alpha = Image.new("L", (1600, 1200), 0)
    alpha.paste(255, (800, 0, 1600, 1200))
    grain.putalpha(alpha)
    out = io.BytesIO()
    grain.save(out, "PNG")
    photo = photos.clean(out.getvalue())
    assert photo.format == "jpeg" and len(photo.data) < len(out.getvalue()) / 2
    image = Image.open(io.BytesIO(photo.data))
    assert image.mode == "RGB" and min(image.getpixel((100, 600))) > 240  # white


def _png_claiming(width: int, height: int) -> bytes:
    """A tiny PNG whose header claims a huge picture (a decompression bomb)."""
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"<!doctype html><html><script>alert(1)</script></html>", "PNG, JPEG or WebP"),
        (b"%PDF-1.7\n1 0 obj <<>> endobj", "PNG, JPEG or WebP"),
        (b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + b"\x00" * 64, "HEIC"),
        (b"GIF89a\x01\x00\x01\x00\x00\x00\x00;", "PNG, JPEG or WebP"),
        (phone_jpeg((640, 480))[:3000], "could not be read"),
        (_png_claiming(6000, 4000), "6,000 × 4,000 pixels; at most 20 megapixels for a PNG"),
        (_png_claiming(14000, 14000), "more than 40 megapixels"),  # past Pillow's own limit
        (b"\xff\xd8" + b"\x00" * (10 * 1024 * 1024), "at most 10 MB"),
        (b"", "at most 10 MB"),
    ],
    ids=["html", "pdf", "heic", "gif", "truncated", "bomb", "bigger-bomb", "over-10-MB", "empty"],
)
def test_what_is_not_a_usable_photo_is_refused_saying_what_to_send(data: bytes, says: str) -> None:
    with pytest.raises(InputError, match=says.replace("×", ".")):
        photos.clean(data)
