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
    from unokit.server import seats  # imported here, so the first test is seeded too

    saved = seats._TEST_RNG
    name = _plain_nodeid(request.node.nodeid)  # the same deals with and without xdist
    seats._TEST_RNG = random.Random(zlib.crc32((DEAL_SALT + name).encode()))
    try:
        yield
    finally:
        seats._TEST_RNG = saved


def _plain_nodeid(nodeid: str) -> str:
    """A test's id without the ``@group`` that pytest-xdist's loadgroup appends."""
    at = nodeid.rfind("@")
    return nodeid[:at] if at > nodeid.rfind("]") else nodeid


# The long chains first: each xdist_group runs on one worker, in this order of groups, and
# the groups start the run (make test passes --no-loadscope-reorder), so that no worker
# is left alone with a long group at the end while the others idle.  The cold-cache test
# opens the numba group: on an empty cache it compiles what the rest of the group loads.
GROUP_ORDER = ("numba", "installed_extras", "installed_plain", "postgres")
COLD_FIRST = "test_compiled_cold.py::test_every_entry_point_compiles_on_an_empty_cache"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    def rank(item: pytest.Item) -> tuple[int, int]:
        mark = item.get_closest_marker("xdist_group")
        if mark is None:
            return (len(GROUP_ORDER), 0)
        name = mark.args[0] if mark.args else mark.kwargs.get("name", "default")
        first = 0 if _plain_nodeid(item.nodeid).endswith(COLD_FIRST) else 1
        return (GROUP_ORDER.index(name) if name in GROUP_ORDER else len(GROUP_ORDER), first)

    items.sort(key=rank)  # stable: the files' order within each rank


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Fail a test marked ``xdist_group`` that ``--dist loadgroup`` did not group.

    The groups keep the numba tests on one worker (one compilation instead of one per
    worker) and one throwaway PostgreSQL per module.  pytest 9.2 stopped honouring how
    pytest-xdist 3.8 marks a group (pytest-dev/pytest-xdist#1386): nothing failed, every
    worker compiled the kernels, and ``make test`` took minutes longer.  pyproject.toml
    pins pytest below 9.2 until xdist follows; this says so if the pin is ever lost."""
    if not getattr(item.config.option, "loadgroup", False):
        return  # not an xdist worker under --dist loadgroup
    if item.get_closest_marker("xdist_group") is not None and "@" not in item.nodeid:
        pytest.fail(
            "pytest-xdist's --dist loadgroup did not put this xdist_group test in its "
            "group: this pytest and pytest-xdist do not work together "
            "(pytest-dev/pytest-xdist#1386); install the versions pyproject.toml pins "
            "(make test does)",
            pytrace=False,
        )


# UNOKIT_TEST_TIMELINE=path writes when each test's phases ran, on which worker, and the
# CPU its worker and the worker's finished children spent in it, one JSON object a line
# (the controller alone writes): where a slow make test spends its wall time and CPU.
TIMELINE = os.environ.get("UNOKIT_TEST_TIMELINE")


def _cpu_seconds() -> float:
    import resource

    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    if TIMELINE:
        report = outcome.get_result()
        report.user_properties.append(("cpu", _cpu_seconds()))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if not TIMELINE or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    import json

    node = getattr(report, "node", None)
    worker = node.gateway.id if node is not None else "main"
    cpu = dict(report.user_properties).get("cpu")
    row = {"id": report.nodeid, "when": report.when, "worker": worker, "cpu": cpu,
           "start": report.start, "stop": report.stop, "outcome": report.outcome}  # fmt: skip
    with open(TIMELINE, "a") as f:
        f.write(json.dumps(row) + "\n")
