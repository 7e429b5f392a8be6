"""Screenshots of the web console for the README: docs/console/*.png.

Runs the real `jarvis serve` on a throw-away data directory and drives Debian's Chromium through a
short scripted session (the same harness as tests/console), so the pictures show what a user sees.
Synthetic data only: made-up MRNs and names.

    .venv/bin/python scripts/console_screenshots.py      # needs /usr/bin/chromium
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Locator, Page, ViewportSize, expect, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # for tests.console.harness, when run as a plain script

from tests.console.harness import ConsoleSession, Server, launch_chromium, open_console, running_server  # noqa: E402

OUT = ROOT / "docs" / "console"
VIEWPORT: ViewportSize = {"width": 1100, "height": 760}


def shoot(page: Page, name: str, part: Locator | None = None) -> None:
    """The whole page, or just `part` of it."""
    page.evaluate("document.activeElement && document.activeElement.blur()")  # no focus ring in pictures
    path = OUT / f"{name}.png"
    if part is None:
        page.screenshot(path=str(path), full_page=True)
    else:
        part.screenshot(path=str(path))
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KiB)")  # noqa: T201 - a script


def clinician_pages(session: ConsoleSession, server: Server) -> None:
    session.sign_in(server.clinician("dr-a"))
    session.ask(
        "Gita Bhat is allergic to penicillin - anaphylaxis. On metformin 500 mg bid. "
        "Cellulitis of the left leg, which antibiotic?",
        "00482913",
        "Gita Bhat",
    )
    page = session.page
    page.get_by_label("Accepted").check()
    page.get_by_label("Note").fill("gave clindamycin")
    page.get_by_role("button", name="Record outcome").click()
    expect(page.locator("#outcome-message")).to_have_text("Outcome recorded: accepted.")
    session.ask("Cellulitis of the left leg is spreading: which antibiotic did we choose?", "00482913")
    shoot(page, "clinician-answer", page.get_by_role("region", name="Ask the assistant"))
    session.history("00482913")
    shoot(page, "clinician-history", page.get_by_role("region", name="Patient history"))


def auditor_page(session: ConsoleSession, server: Server) -> None:
    session.sign_in(server.create_key("auditor", "audit-1"))
    page = session.page
    page.get_by_label("Actor").fill("dr-a")
    page.get_by_label("Events per page").fill("8")
    page.get_by_role("button", name="Show events").click()
    expect(page.locator("#audit-message")).to_contain_text("Page 1:")
    page.get_by_role("button", name="Verify the chain").click()
    expect(page.locator("#verify-result")).to_contain_text("Chain intact")
    shoot(page, "auditor-log")


def admin_page(session: ConsoleSession, server: Server) -> None:
    doctor = server.clinician("dr-b")
    for patient in ("00333001", "00333001", "00333002"):
        server.save_old_episode(doctor, patient, days_ago=200)
    session.sign_in(server.admin_token)
    page = session.page
    holds = page.get_by_role("region", name="Legal holds")
    holds.get_by_label("Patient id (MRN)").fill("00333002")
    holds.get_by_role("button", name="Place hold").click()
    expect(page.locator("#hold-message")).to_have_text("Legal hold placed.")
    page.get_by_role("button", name="Dry run").click()
    expect(page.locator("#retention-message")).to_contain_text("Dry run:")
    keys = page.get_by_role("region", name="API keys")
    keys.get_by_label("Role").select_option("auditor")
    keys.get_by_label("Subject").fill("audit-2")
    keys.get_by_role("button", name="Create key").click()
    expect(page.locator("#new-key")).to_be_visible()
    # Not even a throw-away server's key in a committed picture.
    page.eval_on_selector(
        "#new-key-token", "input => { input.value = 'jvk_… (the new key is shown here, once)'; }"
    )
    shoot(page, "admin")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir, running_server(Path(workdir)) as server:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            signin = open_console(browser, server, VIEWPORT)
            shoot(signin.page, "signin")
            signin.close()
            for build in (clinician_pages, auditor_page, admin_page):
                session = open_console(browser, server, VIEWPORT)
                build(session, server)
                assert not session.errors and not session.blocked, (session.errors, session.blocked)
                session.close()
            browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
