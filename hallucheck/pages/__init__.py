"""Shared pieces of the HTML pages the package writes (the evaluation report, the A/B test report).

Each report keeps its own jinja2 template beside its code; what they have in common lives here
once: the jinja2 environment (autoescape on, undefined names are errors), the page layout
(``layout.html.j2``: doctype, charset, viewport, title, no outside resources), and the flagged-span
marks (``marks.html.j2``: an answer cut into pieces, each coloured by its label). jinja2 is
imported only when a page is rendered.
"""

from hallucheck.pages.environment import page_template
from hallucheck.pages.highlight import LABEL_COLORS, highlight_segments

__all__ = ["LABEL_COLORS", "highlight_segments", "page_template"]
