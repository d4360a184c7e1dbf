"""One detector's use of an LLM for one case: the call budget, the cost meter, and structured calls.

The Checker sets ``analysis.facts.llm_calls_left`` (None = unlimited); every call through a
session takes one from it, and when none is left the session raises :class:`BudgetExhausted`
instead of calling, so a cascade can never overspend. The Checker also sets the instant its time
budget ends (``analysis.facts.llm_deadline``, on the ``time.monotonic()`` clock): a call is
not started after it, and a call that is made must end by it (see :mod:`hallucheck.llm.deadline`). Backend failures (``LLMError``) propagate
to the detector, which turns them into a Finding with ``error`` set.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

from hallucheck.case_facts import CaseFacts
from hallucheck.llm.accounting import CostMeter
from hallucheck.llm.base import Completion, LLMError, Message
from hallucheck.llm.client import to_messages
from hallucheck.llm.deadline import deadline_scope
from hallucheck.llm.structured import StructuredResult, parse_structured
from hallucheck.types import Cost

__all__ = ["LLMSession", "BudgetExhausted"]

T = TypeVar("T", bound=BaseModel)

_REASK = (
    "Your previous reply could not be used: {error}. Reply again with only one JSON object in the "
    "requested format: no prose, no code fence, double-quoted keys and strings."
)


_LOCK = threading.Lock()  # the budget may be spent from several threads (parallel sampling)


class BudgetExhausted(LLMError):
    """No LLM calls are left in this case's budget."""


class LLMSession:
    """Calls ``llm`` on behalf of one detector for one case, within the budget in the case's
    ``facts`` (no limit without them)."""

    def __init__(self, llm: Any, facts: CaseFacts | None = None) -> None:
        self.llm = llm
        self.facts = facts if facts is not None else CaseFacts()
        self.meter = CostMeter()
        self.budget_hit = False

    @property
    def cost(self) -> Cost:
        return self.meter.cost

    def calls_left(self) -> int | None:
        return self.facts.llm_calls_left

    def _take(self) -> None:
        deadline = self.facts.llm_deadline
        if deadline is not None and time.monotonic() >= deadline:
            self.budget_hit = True
            raise BudgetExhausted("the time budget of this check is spent")
        with _LOCK:
            left = self.facts.llm_calls_left
            if left is None:
                return
            if left <= 0:
                self.budget_hit = True
                raise BudgetExhausted("the LLM call budget of this check is spent")
            self.facts.llm_calls_left = left - 1

    def complete(self, messages: Any, **settings: Any) -> Completion:
        """One call (thread-safe); BudgetExhausted when the budget is spent, LLMError on failure."""
        self._take()
        with deadline_scope(self.facts.llm_deadline):
            out: Completion = self.llm.complete(to_messages(messages), **settings)
        with _LOCK:
            self.meter.add(out)
        return out

    def structured(self, messages: Any, schema: type[T], *, reask: bool = True,
                   check: Callable[[T], str | None] | None = None,
                   fallback: Callable[[str], Any] | None = None, **settings: Any) -> StructuredResult[T]:
        """A validated reply, one re-ask with the error when the first is unusable, or a typed
        failure (stage ``llm_error`` / ``budget`` when the backend failed or the budget ran out).
        ``check`` may reject a valid-looking value (returns the reason), e.g. a copied example;
        ``fallback`` reads a reply that has no JSON at all (see :func:`parse_structured`)."""
        msgs = to_messages(messages)
        try:
            first = self.complete(msgs, **settings)
        except BudgetExhausted as exc:
            return StructuredResult(None, "budget", str(exc))
        except LLMError as exc:
            return StructuredResult(None, "llm_error", str(exc))
        result = _checked(parse_structured(first.text, schema, fallback), check)
        if result.ok or not reask:
            return result
        retry_msgs = [*msgs, Message("assistant", first.text[:4000]), Message("user", _REASK.format(error=result.error))]
        try:
            second = self.complete(retry_msgs, **settings)
        except LLMError as exc:
            result.error = f"{result.error}; re-ask not possible: {exc}"
            return result
        again = _checked(parse_structured(second.text, schema, fallback), check)
        again.reasked = True
        if not again.ok:
            again.error = f"{again.error} (after one re-ask; first reply: {result.error})"
        return again


def _checked(result: StructuredResult[T], check: Callable[[T], str | None] | None) -> StructuredResult[T]:
    if check is None or result.value is None:
        return result
    why = check(result.value)
    if why:
        return StructuredResult(None, "invalid", why, result.raw, result.repaired)
    return result
