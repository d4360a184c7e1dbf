"""The pytest plugin: an ``assert_grounded`` fixture over one Checker per test session.

Registered under the ``pytest11`` entry point, so pytest loads it wherever hallucheck is
installed; it imports nothing heavy until a test asks for a fixture. The Checker is built once per
session (detectors load their models once) from the ini options ``hallucheck_detectors`` and
``hallucheck_policy``::

    def test_answer_is_grounded(assert_grounded):
        assert_grounded(question="...", contexts=["..."], answer=my_rag_app("..."))

``from hallucheck.testing import assert_grounded`` works without the fixture, with the default
Checker.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

__all__ = ["assert_grounded", "hallucheck_checker"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini("hallucheck_detectors", "detectors of the hallucheck_checker fixture (default: the default set)",
                  type="linelist", default=[])
    parser.addini("hallucheck_policy", "policy of the hallucheck_checker fixture", default="default")


@pytest.fixture(scope="session")
def hallucheck_checker(pytestconfig: pytest.Config) -> Any:
    """The session's Checker (built once, from the ``hallucheck_*`` ini options)."""
    from hallucheck.checker import Checker  # lazy: heavy: pulls in pydantic, regex; loaded only when this path runs

    detectors = list(pytestconfig.getini("hallucheck_detectors")) or None
    policy = str(pytestconfig.getini("hallucheck_policy") or "default")
    return Checker(detectors, policy)


@pytest.fixture
def assert_grounded(hallucheck_checker: Any) -> Callable[..., Any]:
    """``hallucheck.testing.assert_grounded`` with the session's Checker."""
    from hallucheck.testing import assert_grounded as check_grounded  # lazy: heavy: pulls in pydantic; loaded only when this path runs

    def _assert(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True
        kwargs.setdefault("checker", hallucheck_checker)
        return check_grounded(*args, **kwargs)

    return _assert
