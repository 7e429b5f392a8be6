"""Sign-in: each role sees only its own sections; the key stays in the tab's sessionStorage (never
in the URL or a cookie); bad and revoked keys are refused; sign-out forgets everything; keyboard only."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.console.harness import ConsoleSession, Server

SECTIONS = {"clinician": "Your memory", "auditor": "Audit log", "admin": "Administration"}


@pytest.mark.parametrize("role", ["clinician", "auditor", "admin"])
def test_each_role_sees_only_its_own_sections(server: Server, tab: ConsoleSession, role: str) -> None:
    token = {
        "clinician": lambda: server.clinician("dr-signin"),
        "auditor": lambda: server.create_key("auditor", "audit-signin"),
        "admin": lambda: server.admin_token,
    }[role]()
    page = tab.page
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    tab.sign_in(token)
    subject = {"clinician": "dr-signin", "auditor": "audit-signin", "admin": "first-admin"}[role]
    expect(page.locator("#identity")).to_have_text(f"Signed in as {role} ({subject}) Sign out")
    expect(page.get_by_role("heading", name=SECTIONS[role], level=2)).to_be_visible()
    expect(page.get_by_role("heading", name=SECTIONS[role], level=2)).to_be_focused()
    for other, title in SECTIONS.items():
        if other != role:
            expect(page.get_by_role("heading", name=title, level=2)).to_be_hidden()
    expect(page.get_by_role("heading", name="Sign in")).to_be_hidden()
    # The key lives in this tab's sessionStorage only: not in the address, not in a cookie.
    assert token not in page.url and "jvk_" not in page.url
    assert tab.context.cookies() == []
    assert page.evaluate("sessionStorage.getItem('jarvis.console.token')") == token
    assert page.evaluate("localStorage.length") == 0


def test_a_reload_keeps_the_session_and_sign_out_forgets_it(server: Server, tab: ConsoleSession) -> None:
    page = tab.page
    tab.sign_in(server.clinician("dr-signin"))
    page.reload()
    expect(page.locator("#identity")).to_contain_text("Signed in as clinician (dr-signin)")
    expect(page.get_by_role("heading", name="Your memory")).to_be_visible()
    page.get_by_role("button", name="Sign out").click()
    expect(page.locator("#notice")).to_have_text("You have signed out.")
    expect(page.get_by_role("heading", name="Sign in")).to_be_visible()
    expect(page.get_by_role("heading", name="Your memory")).to_be_hidden()
    assert page.evaluate("sessionStorage.getItem('jarvis.console.token')") is None


@pytest.mark.parametrize(
    "token", ["jvk_AAAAAAAAAAAA." + "A" * 43, "not-a-key"], ids=["unknown key", "malformed"]
)
def test_a_bad_key_is_refused_with_a_visible_reason(tab: ConsoleSession, token: str) -> None:
    page = tab.page
    page.get_by_label("API key", exact=True).fill(token)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("#signin-message")).to_have_text(
        "Not signed in: the token is invalid, expired or revoked"
    )
    expect(page.locator("#identity")).to_be_hidden()
    assert page.evaluate("sessionStorage.length") == 0
    expect(page.get_by_label("API key", exact=True)).to_have_value("")  # not left in the page either


def test_the_console_is_usable_from_the_keyboard(server: Server, tab: ConsoleSession) -> None:
    page = tab.page
    expect(page.get_by_label("API key", exact=True)).to_be_focused()  # focus starts where the work starts
    page.keyboard.type(server.clinician("dr-keys"))
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Your memory")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Patient id (MRN) optional")).to_be_focused()
    # The focus ring is drawn (an outline that is not "none"), so sighted keyboard users see it.
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"
    page.keyboard.type("00111222")
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Question", exact=True)).to_be_focused()
    page.keyboard.type("Fever after chemotherapy, which cultures first?")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the Ask button
    expect(page.locator("#ask-message")).to_have_text("Answer received.")
    expect(page.locator("#answer-text")).to_contain_text("Question received")
