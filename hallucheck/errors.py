"""Errors a user can act on; the CLI and HTTP layers turn them into one-line messages and 4xx."""

from __future__ import annotations

__all__ = ["HallucheckError", "InputError"]


class HallucheckError(Exception):
    """Base of hallucheck's own errors."""


class InputError(HallucheckError, ValueError):
    """The input cannot be checked as given (missing field, wrong type, too large)."""
