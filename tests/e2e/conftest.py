"""Browser tests: a real ``unokit serve`` subprocess and Debian's Chromium (never a
downloaded browser).  They run in their own pytest process (``make test`` runs
``pytest tests/e2e`` after the unit tests): Playwright's sync API and pytest-asyncio's
event loop do not mix in one process.

No page may log a console error (a Content Security Policy refusal included) or throw
in any test: ``no_console_errors`` checks every page opened through ``Player.open``
after each test.  A test that takes the server (or the network) away marks itself
``server_down``: the browser then logs each refused websocket connection, and only
those lines are allowed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from browser_table import CHROMIUM, OPENED, launch  # noqa: E402

# what Chromium logs when a websocket cannot connect (the server is down, or offline)
REFUSED = "WebSocket connection to"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "server_down: the test stops the server or the network; refused websocket "
        "connections in the console are expected",
    )


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (never playwright install)")
    with playwright.sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()


@pytest.fixture(autouse=True)
def no_console_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every page opened so far (module fixtures' too): nothing new in its console's
    errors or its uncaught exceptions while this test ran."""
    before = {id(p): (len(p.errors), len(p.console)) for p in OPENED}
    yield
    refused_ok = request.node.get_closest_marker("server_down") is not None
    problems = []
    for p in OPENED:
        e0, c0 = before.get(id(p), (0, 0))
        console = [c for c in p.console[c0:] if not (refused_ok and REFUSED in c)]
        if p.errors[e0:] or console:
            problems.append(f"{p.name}: errors {p.errors[e0:]}, console {console}")
    assert not problems, problems
