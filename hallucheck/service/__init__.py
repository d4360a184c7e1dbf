"""The HTTP service (extra ``service``): FastAPI app, check store, metrics and dashboard.

Importing this package is cheap; FastAPI and SQLAlchemy load when ``create_app`` or ``run`` is used.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["create_app", "Settings", "run"]

_EXPORTS = {"create_app": "hallucheck.service.app", "Settings": "hallucheck.service.settings",
            "run": "hallucheck.service.server"}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hallucheck.service' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
