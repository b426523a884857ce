"""Hypothesis profiles.

``make test`` (and so CI) runs the property tests *derandomized*: the same examples on
every run, so a red CI always means a change broke something, never that a search got
lucky.  ``make explore`` (``HYPOTHESIS_PROFILE=explore``) searches with fresh random
examples each run, to find new failures; what it finds goes into a test of its own
(the stalled round in test_bots.py was found this way).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
