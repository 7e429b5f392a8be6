"""The auditor's console: a clinician's access (and a refused one) appears in the log table; filters
by actor, patient pseudonym, action, outcome and time; pagination both ways; chain verification;
the FHIR NDJSON export downloads."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.console.harness import ConsoleSession, Server

MRN = "00555001"
COLUMNS = ["seq", "time", "action", "operation", "actor", "role", "outcome", "patients", "episodes", "source"]


def show_events(page: Page, **filters: str) -> None:
    """Sets every filter (empty unless given) and applies them."""
    form = page.get_by_role("group", name="Filters")
    form.get_by_label("From").fill(filters.get("since", ""))
    form.get_by_label("Until").fill(filters.get("until", ""))
    form.get_by_label("Actor").fill(filters.get("actor", ""))
    form.get_by_label("Patient pseudonym").fill(filters.get("patient_ref", ""))
    form.get_by_label("Action").select_option(filters.get("action", ""))
    form.get_by_label("Outcome").select_option(filters.get("outcome", ""))
    form.get_by_label("Events per page").fill(filters.get("limit", "50"))
    form.get_by_role("button", name="Show events").click()
    expect(page.locator("#audit-message")).to_have_text(
        re.compile(r"^(Page \d+: \d+ events?\.|No events match)")
    )


def table(page: Page) -> list[dict[str, str]]:
    """The rows as shown, read in one go (the page may not change half-way through reading)."""
    rows = page.eval_on_selector_all(
        "#audit-table tbody tr", "rows => rows.map(row => [...row.cells].map(cell => cell.textContent))"
    )
    return [dict(zip(COLUMNS, row, strict=True)) for row in rows]


def local(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S")  # the tab's time zone is UTC


def test_the_auditor_sees_a_clinicians_access_with_filters_and_pages(
    server: Server, open_tab: Callable[[], ConsoleSession]
) -> None:
    started = datetime.now(UTC) - timedelta(seconds=2)
    clinician = open_tab()
    clinician.sign_in(server.clinician("dr-audited"))
    episode = clinician.ask("Neutropenic fever, first antibiotic?", MRN)
    clinician.history(MRN)
    clinician.open_episode("ep_doesnotexist000000000000")
    expect(clinician.page.locator("#episode-message")).to_have_text("Not found: episode not found")

    auditor = open_tab()
    auditor.sign_in(server.create_key("auditor", "audit-1"))
    page = auditor.page
    expect(page.locator("#audit-table tbody tr").first).to_be_visible()  # the first page, on arrival

    show_events(page, actor="dr-audited")
    events = table(page)
    assert {e["actor"] for e in events} == {"dr-audited"}
    assert [e["operation"] for e in events] == ["auth.whoami", "ask", "patient.history", "episode.read"]
    ask_event = events[1]
    assert (
        ask_event["action"] == "E" and ask_event["outcome"] == "success" and ask_event["role"] == "clinician"
    )
    assert episode in ask_event["episodes"].split() and ask_event["source"] == "127.0.0.1"
    patient_ref = ask_event["patients"]
    assert re.fullmatch(r"p1_[A-Za-z0-9_-]{43}", patient_ref) and MRN not in page.content()
    assert events[3]["outcome"] == "not_found"  # a refused access is there too

    show_events(page, patient_ref=patient_ref)
    assert [e["operation"] for e in table(page)] == ["ask", "patient.history"]
    show_events(page, patient_ref=patient_ref, action="R")
    assert [e["operation"] for e in table(page)] == ["patient.history"]
    show_events(page, actor="dr-audited", outcome="not_found")
    assert [e["operation"] for e in table(page)] == ["episode.read"]
    show_events(
        page, actor="dr-audited", since=local(started), until=local(datetime.now(UTC) + timedelta(minutes=1))
    )
    assert len(table(page)) == 4
    show_events(page, actor="dr-audited", since=local(datetime.now(UTC) + timedelta(hours=1)))
    expect(page.locator("#audit-message")).to_have_text("No events match these filters.")
    expect(page.locator("#audit-table tbody tr")).to_have_count(0)

    # Pages of 3: forward to the end, and back.
    show_events(page, actor="dr-audited", limit="3")
    pager = page.get_by_role("navigation", name="Audit log pages")
    expect(pager.get_by_role("button", name="Previous page")).to_be_disabled()
    first_page = [e["seq"] for e in table(page)]
    assert len(first_page) == 3 and first_page == sorted(first_page, key=int)
    pager.get_by_role("button", name="Next page").click()
    expect(page.locator("#audit-page")).to_have_text("Page 2")
    expect(page.locator("#audit-message")).to_have_text("Page 2: 1 event.")
    assert int(table(page)[0]["seq"]) > int(first_page[-1])
    expect(pager.get_by_role("button", name="Next page")).to_be_disabled()
    expect(pager.get_by_role("button", name="Previous page")).to_be_focused()  # the focus stays in the pager
    pager.get_by_role("button", name="Previous page").click()
    expect(page.locator("#audit-page")).to_have_text("Page 1")
    assert [e["seq"] for e in table(page)] == first_page


def test_the_auditor_verifies_the_chain_and_exports_fhir_ndjson(server: Server, tab: ConsoleSession) -> None:
    page = tab.page
    tab.sign_in(server.create_key("auditor", "audit-2"))
    page.get_by_role("button", name="Verify the chain").click()
    result = page.locator("#verify-result")
    expect(result).to_have_text(re.compile(r"^Chain intact: \d+ events checked; head [0-9a-f]{64}\.$"))
    assert int(result.inner_text().split()[2]) > 0

    show_events(page, since=local(datetime.now(UTC) - timedelta(days=1)))
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Export FHIR NDJSON").click()
    download = download_info.value
    assert re.fullmatch(r"audit-events-\d{4}-\d\d-\d\dT\d{6}Z\.ndjson", download.suggested_filename)
    lines = Path(download.path()).read_text().splitlines()
    resources = [json.loads(line) for line in lines]
    assert resources and all(r["resourceType"] == "AuditEvent" for r in resources)
    assert any(r["subtype"][0]["code"] == "audit.verify" for r in resources)  # its own verification
    expect(page.locator("#export-message")).to_have_text(
        f"Exported {len(lines)} events as {download.suggested_filename}."
    )
