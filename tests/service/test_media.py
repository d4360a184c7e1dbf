"""Media types of request bodies."""

from __future__ import annotations

import pytest

from hallucheck.service.media import is_json


@pytest.mark.parametrize(("ctype", "ok"), [
    ("", True), ("application/json", True), ("Application/JSON; charset=utf-8", True),
    ("application/problem+json", True), ("text/plain", False), ("application/x-www-form-urlencoded", False),
    ("multipart/form-data; boundary=x", False), ("text/json+", False),
])
def test_json_media_types(ctype, ok):
    assert is_json(ctype) is ok
