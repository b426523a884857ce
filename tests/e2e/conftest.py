"""Browser tests: a real ``unokit serve`` subprocess and Debian's Chromium (never a
downloaded browser).  They run in their own pytest process (``make test`` runs
``pytest tests/e2e`` after the unit tests): Playwright's sync API and pytest-asyncio's
event loop do not mix in one process.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

playwright = pytest.importorskip("playwright.sync_api")

from browser_table import CHROMIUM, launch  # noqa: E402


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (never playwright install)")
    with playwright.sync_playwright() as pw:
        b = launch(pw)
        yield b
        b.close()
