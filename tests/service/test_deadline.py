"""Request deadlines reach inside a check: the ticket's deadline is the check's deadline."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("fastapi")

from scripted_checker import ScriptedChecker

from hallucheck.checker import Checker
from hallucheck.deadline import current_deadline
from hallucheck.service.deadline import Abandoned, Ticket, TicketedChecker, working_on
from hallucheck.types import Case


def test_a_worker_checks_within_its_tickets_deadline():
    ticket = Ticket(time.monotonic() + 30.0)
    assert current_deadline() is None
    with working_on(ticket):
        assert current_deadline() == ticket.deadline
    assert current_deadline() is None


def test_a_check_run_for_a_ticket_whose_time_is_up_stops_and_says_what_it_did_not_read():
    seen = []

    class Probe(Checker):
        def _run(self, analysis):  # type: ignore[no-untyped-def]
            report = super()._run(analysis)
            seen.append(analysis.deadline)
            return report

    checker = Probe(["citations"], policy="tiered")
    ticket = Ticket(time.monotonic() + 30.0)
    with working_on(ticket):
        checker.check(question="q", contexts=["The sky is blue."], answer="The sky is blue.")
    assert seen == [ticket.deadline]  # long detectors stop at their next window by it


def test_a_ticketed_checker_stops_once_abandoned_and_says_when_it_is_idle():
    ticket = Ticket(time.monotonic() + 30.0)
    checker = TicketedChecker(ScriptedChecker(), ticket)
    idle = []
    checker.when_idle(lambda: idle.append(1))
    assert idle == [1]  # nothing running: at once
    case = Case(question="q", contexts=["x"], answer="fine")
    assert checker.check(case) is not None
    ticket.abandon()
    with pytest.raises(Abandoned):
        checker.check(case)
