"""One `jarvis serve` and one headless Chromium for all the console tests, and a fresh browser tab
(its own context: its own sessionStorage) per test. Package scope rather than one per module: the
server loads spaCy, ONNX and Chroma at start (several seconds), and the tests are split by role.

Each test file uses its own doctors and patients, so the files do not depend on each other's data
or order. Skipped, with the reason, only where Debian's chromium is not installed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.console.harness import (
    CHROMIUM,
    ConsoleSession,
    Server,
    launch_chromium,
    open_console,
    running_server,
)

if not CHROMIUM.exists():
    pytest.skip(
        f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does",
        allow_module_level=True,
    )


@pytest.fixture(scope="package")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running_server(tmp_path_factory.mktemp("console")) as running:
        yield running


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def open_tab(browser: Browser, server: Server) -> Iterator[Callable[[], ConsoleSession]]:
    """`open_tab()` opens the console in a new tab of its own (several users side by side); every
    tab is checked at the end: no request left the server's origin, no script error, no CSP block."""
    sessions: list[ConsoleSession] = []

    def open_one() -> ConsoleSession:
        session = open_console(browser, server)
        sessions.append(session)
        return session

    yield open_one
    for session in sessions:
        session.close()
    for session in sessions:
        assert session.blocked == [], f"requests outside {server.base_url}: {session.blocked}"
        assert session.errors == [], session.errors
        assert all(url.startswith(server.base_url) for url in session.requests)


@pytest.fixture
def tab(open_tab: Callable[[], ConsoleSession]) -> ConsoleSession:
    return open_tab()
