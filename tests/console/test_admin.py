"""The admin's console: view and update the retention policy; a dry run, then the purge with its
report, with a legal hold keeping one patient; API keys created (shown once), used and revoked."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.console.harness import ConsoleSession, Server


def report(page: Page) -> dict[str, str]:
    pairs = page.eval_on_selector_all(
        "#retention-report dt", "terms => terms.map(t => [t.textContent, t.nextElementSibling.textContent])"
    )
    return dict(pairs)


def test_the_admin_views_and_updates_the_retention_policy(server: Server, tab: ConsoleSession) -> None:
    page = tab.page
    tab.sign_in(server.admin_token)
    region = page.get_by_role("region", name="Retention policy")
    days, overrides = (
        region.get_by_label("Keep episodes and facts for (days)"),
        region.get_by_label("Per-doctor overrides"),
    )
    current = server.call("GET", "/v1/admin/retention/policy", server.admin_token)[1]
    expect(days).to_have_value(str(current["default_days"]))

    days.fill("120")
    overrides.fill("dr-keep 400\n\ndr-short 7")
    region.get_by_role("button", name="Save policy").click()
    expect(page.locator("#policy-message")).to_have_text("Policy saved: 120 days, 2 per-doctor override(s).")
    assert server.call("GET", "/v1/admin/retention/policy", server.admin_token)[1] == {
        "default_days": 120,
        "per_doctor": {"dr-keep": 400, "dr-short": 7},
    }
    page.reload()
    expect(days).to_have_value("120")
    expect(overrides).to_have_value("dr-keep 400\ndr-short 7")

    overrides.fill("dr-keep four hundred")
    region.get_by_role("button", name="Save policy").click()
    expect(page.locator("#policy-message")).to_have_text('Error: override line 1 should look like "dr-a 30"')
    overrides.fill("dr-keep 99999")
    region.get_by_role("button", name="Save policy").click()
    expect(page.locator("#policy-message")).to_have_text(
        "Invalid input: per_doctor days must be between 1 and 36500"
    )
    assert server.call("GET", "/v1/admin/retention/policy", server.admin_token)[1]["default_days"] == 120


def test_dry_run_then_purge_with_a_legal_hold(server: Server, tab: ConsoleSession) -> None:
    doctor = server.clinician("dr-old")
    for patient in ("00333001", "00333001", "00333002"):
        server.save_old_episode(doctor, patient, days_ago=400)
    page = tab.page
    tab.sign_in(server.admin_token)
    holds = page.get_by_role("region", name="Legal holds")
    holds.get_by_label("Patient id (MRN)").fill("00333002")
    holds.get_by_role("button", name="Place hold").click()
    expect(page.locator("#hold-message")).to_have_text("Legal hold placed.")
    holds.get_by_role("button", name="Place hold").click()
    expect(page.locator("#hold-message")).to_have_text("This patient was already on legal hold.")

    page.get_by_role("button", name="Dry run").click()
    expect(page.locator("#retention-message")).to_have_text("Dry run: 2 episodes would be purged, 1 held.")
    dry = report(page)
    assert dry["Run"] == "dry run (nothing deleted)" and dry["Expired episodes"] == "2"
    assert dry["Episodes deleted"] == "0" and dry["Episodes kept by legal holds"] == "1"
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", dry["Cutoff"])
    history = server.call("POST", "/v1/patients/history", doctor, {"patient_id": "00333001"})[1]
    assert len(history["episodes"]) == 2  # a dry run changes nothing

    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Purge now").click()
    expect(page.locator("#retention-message")).to_have_text("Purge done: 2 episodes deleted, 1 held.")
    done = report(page)
    assert (
        done["Run"] == "purge"
        and done["Episodes deleted"] == "2"
        and done["Doctors' collections compacted"] == "1"
    )
    assert server.call("POST", "/v1/patients/history", doctor, {"patient_id": "00333001"})[1] == {
        "episodes": []
    }
    kept = server.call("POST", "/v1/patients/history", doctor, {"patient_id": "00333002"})[1]
    assert len(kept["episodes"]) == 1

    holds.get_by_role("button", name="Lift hold").click()
    expect(page.locator("#hold-message")).to_have_text("Legal hold lifted.")
    holds.get_by_role("button", name="Lift hold").click()
    expect(page.locator("#hold-message")).to_have_text("Not found: no legal hold for this patient")


def test_create_a_key_shown_once_use_it_and_revoke_it(
    server: Server, open_tab: Callable[[], ConsoleSession]
) -> None:
    admin = open_tab()
    admin.sign_in(server.admin_token)
    page = admin.page
    keys = page.get_by_role("region", name="API keys")
    own = page.locator("#keys-table tbody tr").filter(has_text="first-admin")
    expect(own.get_by_role("cell").last).to_have_text("your key (this session)")

    keys.get_by_label("Role").select_option("clinician")
    keys.get_by_role("button", name="Create key").click()
    expect(page.locator("#key-message")).to_have_text(
        "Invalid input: a clinician key needs a subject (the doctor id)"
    )

    keys.get_by_label("Subject").fill("dr-new")
    keys.get_by_role("button", name="Create key").click()
    expect(page.locator("#key-message")).to_have_text(re.compile(r"^Key \S+ created for clinician dr-new\.$"))
    key_id = page.locator("#key-message").inner_text().split()[1]
    token = page.get_by_label("Key", exact=True).input_value()
    assert token.startswith(f"jvk_{key_id}.")
    row = page.locator("#keys-table tbody tr").filter(has_text=key_id)
    expect(row.get_by_role("cell")).to_have_text(
        [key_id, "clinician", "dr-new", re.compile(r"UTC$"), "active", "Revoke"]
    )
    page.get_by_role("button", name="Done, hide it").click()
    expect(page.locator("#new-key")).to_be_hidden()
    assert token not in page.content()  # shown once: gone from the page

    user = open_tab()
    user.sign_in(token)
    expect(user.page.locator("#identity")).to_contain_text("Signed in as clinician (dr-new)")

    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name=f"Revoke key {key_id}").click()
    expect(page.locator("#key-message")).to_have_text(f"Key {key_id} revoked.")
    expect(row.get_by_role("cell").nth(4)).to_have_text(re.compile(r"^revoked \d{4}-\d\d-\d\d .* UTC$"))
    expect(row.get_by_role("button")).to_have_count(0)

    # The revoked user is signed out at their next request, and cannot sign in again.
    user.page.get_by_role("region", name="Patient history").get_by_label("Patient id (MRN)").fill("00111222")
    user.page.get_by_role("button", name="Show history").click()
    expect(user.page.locator("#notice")).to_have_text(
        "Your key is no longer valid (expired or revoked). Sign in again."
    )
    expect(user.page.get_by_role("heading", name="Sign in")).to_be_visible()
    user.page.get_by_label("API key", exact=True).fill(token)
    user.page.get_by_role("button", name="Sign in").click()
    expect(user.page.locator("#signin-message")).to_have_text(
        "Not signed in: the token is invalid, expired or revoked"
    )
