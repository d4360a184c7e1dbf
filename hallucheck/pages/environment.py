"""The jinja2 environment of the package's HTML pages: one place that decides how they escape.

Why one place: a report page shows text that users and language models wrote (questions, sources,
answers, raw outputs). Autoescape is on for every template and for strings rendered through the
environment, and an undefined name raises instead of printing nothing, so a template that forgets
a field fails in tests rather than shipping a blank. A report package's own ``templates/`` folder
comes first; the shared layout and macros of ``hallucheck/pages/templates`` are found after it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

__all__ = ["page_template"]


@lru_cache(maxsize=8)
def _environment(package: str) -> Any:
    # lazy: heavy: jinja2 loads only when this path runs
    from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined, select_autoescape

    return Environment(
        loader=ChoiceLoader([PackageLoader(package, "templates"), PackageLoader("hallucheck.pages", "templates")]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
    )


def page_template(package: str, name: str) -> Any:
    """The template ``name`` of ``package``'s ``templates/`` folder (or a shared one), autoescaped."""
    return _environment(package).get_template(name)
