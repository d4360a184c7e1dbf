"""``python -m hallucheck.train``: the same as ``hallucheck train``."""

from hallucheck.train.run import main

raise SystemExit(main())
