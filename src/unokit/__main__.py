"""``python -m unokit``: the same as the ``unokit`` command."""

import sys

from unokit.cli import main

sys.exit(main())
