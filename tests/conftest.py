"""Hypothesis profiles, and known deals for the server tests.

``make test`` (and so CI) runs the property tests *derandomized*: the same examples on
every run, so a red CI always means a change broke something, never that a search got
lucky.  ``make explore`` (``HYPOTHESIS_PROFILE=explore``) searches with fresh random
examples each run, to find new failures; what it finds goes into a test of its own
(the stalled round in test_bots.py was found this way).

The same reasoning holds for the server's shuffles: a real server draws every seed from
``secrets``, so a test that plays through an in-process server met a different deal on
every run, and a deal the test did not foresee (a bot opening with a Wild Draw Four, a
drawn card to keep) failed it once in many runs.  Each test now draws its rooms' seeds
from a generator seeded by its own name: its deals are the same on every run and on
every xdist worker, so a failure is reproduced by running the test again.  (A server
in a module-scoped fixture, started before this fixture runs, is not seeded.)
"""

from __future__ import annotations

import os
import random
import zlib
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# make flake-hunt sets a salt per run, so that its runs meet other deals and a failure
# that needs an unlucky deal can still be found there (and then reproduced here by
# running the test with that salt)
DEAL_SALT = os.environ.get("UNOKIT_TEST_DEAL_SALT", "")


@pytest.fixture(autouse=True)
def _known_deals(request: pytest.FixtureRequest) -> Iterator[None]:
    from unokit.server import room  # imported here, so the first test is seeded too

    saved = room._TEST_RNG
    room._TEST_RNG = random.Random(zlib.crc32((DEAL_SALT + request.node.nodeid).encode()))
    try:
        yield
    finally:
        room._TEST_RNG = saved
