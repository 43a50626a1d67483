"""The stand-in refuses embeds as Discord does (documented Embed Limits):
400, code 50035, the error at the path of the part that is too long."""

from __future__ import annotations

from typing import Any

import pytest

from standin.messages import BadMessage, check_body


def refused(body: dict[str, Any]) -> dict[str, Any]:
    with pytest.raises(BadMessage) as caught:
        check_body(body, creating=True)
    assert (caught.value.status, caught.value.code) == (400, 50035)
    return caught.value.body()["errors"]


def error_at(errors: dict[str, Any], path: str) -> dict[str, str]:
    node = errors
    for part in path.split("."):
        node = node[part]
    return node["_errors"][0]


@pytest.mark.parametrize(
    ("embed", "path", "limit"),
    [
        ({"title": "t" * 257}, "embeds.0.title", 256),
        ({"description": "d" * 4097}, "embeds.0.description", 4096),
        ({"footer": {"text": "f" * 2049}}, "embeds.0.footer.text", 2048),
        ({"author": {"name": "a" * 257}}, "embeds.0.author.name", 256),
        ({"fields": [{"name": "n" * 257, "value": "v"}]}, "embeds.0.fields.0.name", 256),
        ({"fields": [{"name": "n", "value": "v" * 1025}]}, "embeds.0.fields.0.value", 1024),
        ({"fields": [{"name": "n", "value": "v"}] * 26}, "embeds.0.fields", 25),
    ],
)
def test_each_embed_limit_is_discords(embed: dict[str, Any], path: str, limit: int) -> None:
    error = error_at(refused({"embeds": [embed]}), path)
    message = f"Must be {limit} or fewer in length."
    assert error == {"code": "BASE_TYPE_MAX_LENGTH", "message": message}


def test_parts_each_within_their_limits_still_count_toward_6000() -> None:
    embed = {
        "title": "t" * 256,
        "description": "d" * 2000,
        "footer": {"text": "f" * 1000},
        "fields": [{"name": "n" * 10, "value": "v" * 109}] * 25,
    }  # 256 + 2,000 + 1,000 + 25 x 119 = 6,231: too much together, each part within
    errors = refused({"embeds": [embed]})
    assert list(errors) == ["embeds"]
    embed["description"] = "d" * 1769  # now exactly 6,000
    check_body({"embeds": [embed]}, creating=True)


def test_6000_characters_across_a_messages_embeds() -> None:
    part = {"description": "d" * 3000}
    check_body({"embeds": [part, part]}, creating=True)  # exactly 6,000: accepted
    errors = refused({"embeds": [part, part, {"title": "x"}]})
    assert errors["embeds"]["_errors"] == [
        {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}
    ]


def test_ten_embeds_per_message_and_required_field_parts() -> None:
    errors = refused({"embeds": [{"title": "x"}] * 11})
    assert error_at(errors, "embeds")["message"] == "Must be 10 or fewer in length."
    errors = refused({"embeds": [{"fields": [{"name": "n", "value": ""}]}]})
    assert error_at(errors, "embeds.0.fields.0.value")["code"] == "BASE_TYPE_REQUIRED"
