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
        def _run(self, analysis, intake=None):  # type: ignore[no-untyped-def]
            report = super()._run(analysis, intake)
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


@pytest.mark.slow
def test_a_request_past_its_deadline_stops_the_tagger_inside_and_frees_its_slot(tmp_path, monkeypatch):
    """The span tagger is one detector that may run for many seconds on a long answer: past the
    request's deadline it stops at its next few windows, not after all of them."""
    from fastapi.testclient import TestClient

    from hallucheck.models.tagger import Tagger, tagger_available
    from hallucheck.service.app import create_app
    from hallucheck.service.context import ServiceContext
    from hallucheck.service.settings import Settings

    if not tagger_available():
        pytest.skip("shipped tagger files missing")
    ran: list[int] = []
    run_typed = Tagger.run_typed

    def counted(self, windows, batch_size=16):  # type: ignore[no-untyped-def]
        ran.append(len(windows))
        return run_typed(self, windows, batch_size)

    monkeypatch.setattr(Tagger, "run_typed", counted)
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'd.db'}", detectors=("model",), policy="weighted", auth=False,
                        retention_days=None, rate_per_second=1000.0, rate_burst=1000, request_timeout_s=0.3,
                        warmup=("en",))
    ctx = ServiceContext.build(settings)
    answer = " ".join(f"Sentence number {i} says the Golden Gate Bridge opened in 1937 and is painted orange." for i in range(400))
    # long sources fill every window with evidence: 48 full windows take seconds, not tenths
    source = " ".join(f"Report {i}: the bridge number {i} in district {i % 40} was painted orange in {1900 + i % 120}."
                      for i in range(2000))
    with TestClient(create_app(settings, context=ctx)) as client:
        ran.clear()  # the warm-up check ran before
        r = client.post("/v1/check", json={"question": "Tell me about the bridge.", "answer": answer,
                                           "contexts": [source]})
        assert r.status_code == 504, r.text
        deadline = time.monotonic() + 120
        while (ctx.admission.snapshot()["heavy"]["running"] or ctx.admission.snapshot()["small"]["running"]) \
                and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sum(ran) < 48, ran  # the answer has 48 windows to read (max_windows); it stopped before the end
        assert client.get("/v1/checks").json()["total"] == 0
