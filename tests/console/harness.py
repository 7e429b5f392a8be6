"""The real `jarvis serve` on a loopback port and Debian's Chromium driven by Playwright, shared by
the console tests (tests/console/conftest.py) and scripts/console_screenshots.py.

Nothing is downloaded: Playwright only drives /usr/bin/chromium (never `playwright install`), the
browser resolves no host name at all, and every request the page makes is recorded so the tests can
check that it stayed on the server's origin.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Route, ViewportSize, expect

from scripts.topology import free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # No DNS at all: the console is reached by IP, so any other host is a bug, and must not leave.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
START_TIMEOUT_S = 180.0
# Direct connections only: a proxy from the environment must not see loopback traffic.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


@dataclass
class Server:
    """A running `jarvis serve` with its own data directory, and the keys the tests sign in with."""

    base_url: str
    data_dir: Path
    admin_token: str
    log_path: Path
    _clinicians: dict[str, str] = field(default_factory=dict)

    @property
    def console_url(self) -> str:
        return f"{self.base_url}/console/"

    def call(self, method: str, path: str, token: str | None = None, body: Any = None) -> tuple[int, Any]:
        """One API call from the test process (setting data up, or checking what the page did)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base_url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with _OPENER.open(request, timeout=60) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
            error.close()
        text = raw.decode()
        try:
            return status, json.loads(text) if text else None
        except json.JSONDecodeError:
            return status, text

    def fetch(self, path: str) -> tuple[int, dict[str, str], bytes]:
        """A plain GET without following redirects: status, headers (lower-case names), body."""

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *_args: Any, **_kwargs: Any) -> None:
                return None

        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}), NoRedirect)
        try:
            with opener.open(self.base_url + path, timeout=60) as response:
                return response.status, {k.lower(): v for k, v in response.headers.items()}, response.read()
        except urllib.error.HTTPError as error:
            with error:
                return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()

    def create_key(self, role: str, subject: str) -> str:
        status, key = self.call(
            "POST", "/v1/admin/api-keys", self.admin_token, {"role": role, "subject": subject}
        )
        assert status == 201, key
        return str(key["token"])

    def clinician(self, doctor_id: str) -> str:
        """A key for this doctor, created on first use (each test file has its own doctors)."""
        if doctor_id not in self._clinicians:
            self._clinicians[doctor_id] = self.create_key("clinician", doctor_id)
        return self._clinicians[doctor_id]

    def save_old_episode(self, token: str, patient_id: str, days_ago: int) -> str:
        created_at = (datetime.now(UTC) - timedelta(days=days_ago)).isoformat()
        item = {
            "query": "Potassium 6.1 on spironolactone?",
            "response": "Stop it and recheck.",
            "patient": {"id": patient_id},
            "created_at": created_at,
        }
        status, body = self.call("POST", "/v1/episodes", token, {"episodes": [item]})
        assert status == 201, body
        return str(body["episode_ids"][0])


def _server_env(data_dir: Path, port: int) -> dict[str, str]:
    # Only this server's settings: nothing of the developer's own JARVIS_* environment leaks in.
    env = {k: v for k, v in os.environ.items() if not k.startswith("JARVIS_")}
    env.update(
        JARVIS_DATA_DIR=str(data_dir),
        JARVIS_HOST="127.0.0.1",
        JARVIS_PORT=str(port),
        JARVIS_RATE_LIMIT_PER_MINUTE="100000",
        JARVIS_LOG_LEVEL="WARNING",
        # The admin tests run the purges themselves; a scheduled run at start-up could hold the
        # retention lock just when they start one (tests/jobs/test_scheduler.py covers the jobs).
        JARVIS_SERVE_SCHEDULER="false",
    )
    return env


def _wait_until_ready(process: subprocess.Popen[bytes], base_url: str, log_path: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(
                f"jarvis serve exited with {process.returncode}:\n{log_path.read_text()[-3000:]}"
            )
        try:
            with _OPENER.open(base_url + "/readyz", timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise RuntimeError(f"jarvis serve not ready after {START_TIMEOUT_S} s:\n{log_path.read_text()[-3000:]}")


@contextmanager
def running_server(workdir: Path) -> Iterator[Server]:
    """`jarvis serve` (the installed entry point) on a free port, stopped with SIGTERM afterwards.

    Started in an empty working directory so that no `.env` of the checkout is read; development
    mode generates its secrets and the first admin key in the data directory.
    """
    data_dir, log_path = workdir / "data", workdir / "serve.log"
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    jarvis = Path(sys.executable).with_name("jarvis")
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [str(jarvis), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=workdir,
            env=_server_env(data_dir, port),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_ready(process, base_url, log_path)
            admin = (data_dir / "first-admin-key.txt").read_text().strip()
            yield Server(base_url, data_dir, admin, log_path)
        finally:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def launch_chromium(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


@dataclass
class ConsoleSession:
    """One browser tab on the console (its own context: its own sessionStorage), with a record of
    every request it made and every script error or CSP violation it hit."""

    context: BrowserContext
    page: Page
    origin: str
    requests: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def sign_in(self, token: str) -> None:
        self.page.get_by_label("API key", exact=True).fill(token)
        self.page.get_by_role("button", name="Sign in").click()
        self.page.locator("#identity").wait_for(state="visible")

    def ask(self, question: str, patient_id: str = "", name: str = "") -> str:
        """Asks through the form and waits for the answer; returns the new episode's id."""
        form = self.page.get_by_role("region", name="Ask the assistant")
        form.get_by_label("Patient id (MRN)").fill(patient_id)
        form.get_by_label("Patient name").fill(name)
        form.get_by_label("Question", exact=True).fill(question)
        form.get_by_role("button", name="Ask", exact=True).click()
        expect(self.page.locator("#ask-message")).to_have_text("Answer received.")
        meta = self.page.locator("#answer-meta").inner_text()
        match = re.search(r"saved as episode (\S+)\.", meta)
        assert match, meta
        return match.group(1)

    def open_episode(self, episode_id: str) -> None:
        region = self.page.get_by_role("region", name="Open an episode")
        region.get_by_label("Episode id").fill(episode_id)
        region.get_by_role("button", name="Open", exact=True).click()
        expect(self.page.locator("#episode-message")).not_to_have_text("Loading…")

    def history(self, patient_id: str) -> None:
        region = self.page.get_by_role("region", name="Patient history")
        region.get_by_label("Patient id (MRN)").fill(patient_id)
        region.get_by_role("button", name="Show history").click()
        expect(self.page.locator("#history-message")).to_contain_text("for this patient.")

    def close(self) -> None:
        self.context.close()


def open_console(browser: Browser, server: Server, viewport: ViewportSize | None = None) -> ConsoleSession:
    context = browser.new_context(
        viewport=viewport or {"width": 1200, "height": 900}, timezone_id="UTC", locale="en-GB"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    session = ConsoleSession(context, page, server.base_url)

    def only_our_origin(route: Route) -> None:
        url = route.request.url
        session.requests.append(url)
        if url == server.base_url or url.startswith(server.base_url + "/"):
            route.continue_()
        else:
            session.blocked.append(url)
            route.abort()

    context.route("**/*", only_our_origin)
    page.on("pageerror", lambda error: session.errors.append(f"script error: {error}"))
    page.on(
        "console",
        lambda message: (
            session.errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    page.goto(server.console_url)
    page.get_by_label("API key", exact=True).wait_for()
    return session
