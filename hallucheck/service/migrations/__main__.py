"""``python -m hallucheck.service.migrations [DB_URL]``: upgrade a check store to the newest revision."""

import sys

from hallucheck.service.migrations import main

sys.exit(main())
