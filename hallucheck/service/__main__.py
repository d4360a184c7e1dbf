"""``python -m hallucheck.service``: the server without the CLI (same as ``hallucheck serve``)."""

import sys

from hallucheck.service.server import main

sys.exit(main())
