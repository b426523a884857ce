"""``python -m unokit``: the same as the ``unokit`` command."""

import sys

try:
    from unokit.cli import main
except KeyboardInterrupt:  # Ctrl-C while the command's modules load: no traceback
    print("interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
