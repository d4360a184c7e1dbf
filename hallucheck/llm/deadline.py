"""The time limit of LLM calls: the check's deadline (:mod:`hallucheck.deadline`), under its
older name for the LLM layer and for code that imported it from here."""

from hallucheck.deadline import current_deadline, deadline_scope, seconds_left, time_limit

__all__ = ["current_deadline", "deadline_scope", "seconds_left", "time_limit"]
