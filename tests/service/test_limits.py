"""Size limits: one limit per field and one status per kind, worded the same everywhere.

A body over the service's limit gets 413; an answer or sources over their limit get 422
``case_too_large`` naming the limit that applied (the service's, when tighter than the
package's). The CLI and the Python API refuse the same case with the same words.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from hallucheck.cases import MAX_ANSWER_CHARS, make_case
from hallucheck.errors import InputError

httpx = pytest.importorskip("httpx")

SOURCES = ["The tower is 330 metres tall."]


def _case(answer: str) -> dict[str, object]:
    return {"question": "How tall is the tower?", "contexts": SOURCES, "answer": answer}


def _error(r: httpx.Response, status: int) -> dict[str, str]:
    assert r.status_code == status, (r.status_code, r.text[:300])
    return r.json()["error"]  # type: ignore[no-any-return]


@pytest.mark.service
def test_http_one_status_per_kind_and_the_limit_that_applied(server_factory):  # type: ignore[no-untyped-def]
    srv = server_factory(HALLUCHECK_MAX_ANSWER_CHARS="500", HALLUCHECK_MAX_SOURCE_CHARS="1000",
                         HALLUCHECK_MAX_BODY_BYTES="400000")
    # over the service's answer limit, under the package's: 422 naming 500
    err = _error(httpx.post(srv.url + "/v1/check", json=_case("z" * 600)), 422)
    assert err["code"] == "case_too_large" and err["message"] == "answer is 600 characters; the limit is 500"
    # over both limits (still a body the service reads): the service's limit applied, not the package's
    err = _error(httpx.post(srv.url + "/v1/check", json=_case("z" * (MAX_ANSWER_CHARS + 50_000))), 422)
    assert err["code"] == "case_too_large" and err["message"].endswith("the limit is 500"), err
    err = _error(httpx.post(srv.url + "/v1/check", json={**_case("short"), "contexts": ["s" * 1200]}), 422)
    assert err["message"] == "sources are 1200 characters; the limit is 1000"
    err = _error(httpx.post(srv.url + "/v1/check/batch", json={"cases": [_case("ok"), _case("z" * 600)]}), 422)
    assert err["message"] == "cases[1]: answer is 600 characters; the limit is 500"
    # a body over its limit: 413 naming the body limit
    err = _error(httpx.post(srv.url + "/v1/check", json=_case("z" * 500_000)), 413)
    assert err["code"] == "too_large" and "400000" in err["message"]


def test_python_and_cli_word_it_the_same() -> None:
    answer = "z" * (MAX_ANSWER_CHARS + 1)
    expected = f"answer is {MAX_ANSWER_CHARS + 1} characters; the limit is {MAX_ANSWER_CHARS}"
    with pytest.raises(InputError) as info:
        make_case(_case(answer))
    assert str(info.value) == expected
    proc = subprocess.run([sys.executable, "-m", "hallucheck", "detect", "-", "-d", "citations"],
                          input=json.dumps(_case(answer)), capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert expected in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr
