"""The clinician's console end to end: ask for a patient → answer, safety facts (first and boxed),
recalled memories with date, relevance and outcome → record an outcome → see it on the next ask and
in the history; open and delete episodes; another doctor's episode is "not found"."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from playwright.sync_api import expect

from tests.console.harness import ConsoleSession, Server

MRN, NAME = "00482913", "Gita Bhat"
FIRST_QUESTION = f"{NAME} is allergic to penicillin - anaphylaxis. On metformin 500 mg bid. Cellulitis of the left leg, which antibiotic?"  # fmt: skip
TODAY = datetime.now(UTC).strftime("%Y-%m-%d")


def test_ask_see_safety_facts_and_memories_accept_and_see_the_outcome_later(
    server: Server, tab: ConsoleSession
) -> None:
    page = tab.page
    tab.sign_in(server.clinician("dr-flow"))
    first = tab.ask(FIRST_QUESTION, MRN, NAME)

    safety = page.get_by_role("region", name="Safety facts for this patient")
    expect(safety).to_be_visible()
    expect(safety.get_by_role("listitem")).to_contain_text(
        [
            re.compile(r"^allergy: penicillin: anaphylaxis \(recorded " + TODAY),
            re.compile(r"^medication: metformin 500 mg bid"),
        ]
    )
    # Shown first: above the answer, in its own box.
    assert safety.bounding_box()["y"] < page.locator("#answer-text").bounding_box()["y"]  # type: ignore[index]
    expect(page.locator("#answer-text")).to_contain_text("Question received")
    expect(page.locator("#answer-text")).not_to_contain_text(NAME)  # the model only sees de-identified text
    expect(page.locator("#answer-meta")).to_contain_text("Model: offline; saved as episode ep_")
    expect(page.locator("#memories-none")).to_have_text("No relevant past interactions were found.")

    page.get_by_label("Accepted").check()
    page.get_by_label("Note").fill("gave clindamycin")
    page.get_by_role("button", name="Record outcome").click()
    expect(page.locator("#outcome-message")).to_have_text("Outcome recorded: accepted.")

    tab.ask("Cellulitis of the left leg again: which antibiotic did we choose last time?", MRN)
    memories = page.get_by_role("table").filter(has=page.get_by_role("columnheader", name="Relevance"))
    row = memories.get_by_role("row").filter(has_text=first)
    expect(row).to_have_count(1)
    cells = row.get_by_role("cell")
    expect(cells.nth(0)).to_have_text(re.compile(rf"^{TODAY} \d\d:\d\d:\d\d UTC$"))  # date
    assert 0.25 <= float(cells.nth(1).inner_text()) <= 1.0  # relevance (cosine, above the threshold)
    expect(cells.nth(2)).to_have_text("accepted")  # past outcome
    expect(safety).to_contain_text("allergy: penicillin: anaphylaxis")  # still there, whatever was asked

    tab.history(MRN)
    expect(page.locator("#history-message")).to_have_text("2 episodes for this patient.")
    history = page.locator("#history-table tbody tr")
    expect(history.nth(1)).to_contain_text(FIRST_QUESTION)  # the doctor's own words, decrypted for them
    expect(history.nth(1).get_by_role("cell").nth(2)).to_have_text("accepted")
    expect(history.nth(0).get_by_role("cell").nth(2)).to_have_text("none yet")


def test_browse_history_open_and_delete_an_episode(server: Server, tab: ConsoleSession) -> None:
    token = server.clinician("dr-hist")
    kept = server.save_old_episode(token, "00999001", days_ago=3)
    doomed = server.save_old_episode(token, "00999001", days_ago=1)
    page = tab.page
    tab.sign_in(token)
    page.get_by_role("region", name="Patient history").get_by_label("Patient id (MRN)").fill("00999001")
    page.get_by_role("button", name="Show history").click()
    expect(page.locator("#history-message")).to_have_text("2 episodes for this patient.")
    rows = page.locator("#history-table tbody tr")
    expect(rows.get_by_role("cell").filter(has_text=re.compile("^ep_"))).to_have_text(
        [doomed, kept]
    )  # newest first

    rows.first.get_by_role("button", name="Open").click()
    details = page.locator("#episode-fields")
    expect(details).to_contain_text(f"Episode{doomed}")
    expect(details).to_contain_text("QuestionPotassium 6.1 on spironolactone?")
    expect(details).to_contain_text("AnswerStop it and recheck.")

    page.once("dialog", lambda dialog: dialog.dismiss())  # changing one's mind keeps it
    rows.first.get_by_role("button", name="Delete").click()
    expect(rows).to_have_count(2)
    page.once("dialog", lambda dialog: dialog.accept())
    rows.first.get_by_role("button", name="Delete").click()
    expect(page.locator("#history-message")).to_have_text(f"Episode {doomed} deleted.")
    expect(rows).to_have_count(1)
    expect(page.locator("#episode-details")).to_be_hidden()

    page.get_by_role("button", name="Show history").click()
    expect(page.locator("#history-message")).to_have_text("1 episode for this patient.")
    assert server.call("GET", f"/v1/episodes/{doomed}", token)[0] == 404
    assert server.call("GET", f"/v1/episodes/{kept}", token)[0] == 200


def test_another_doctors_episode_is_not_found(server: Server, open_tab: Callable[[], ConsoleSession]) -> None:
    owner = open_tab()
    owner.sign_in(server.clinician("dr-owner"))
    episode = owner.ask("Warfarin INR 5.2 without bleeding, hold how many doses?", "00777001")

    intruder = open_tab()
    intruder.sign_in(server.clinician("dr-intruder"))
    page = intruder.page
    for episode_id in (episode, "ep_doesnotexist000000000000"):
        intruder.open_episode(episode_id)
        expect(page.locator("#episode-message")).to_have_text("Not found: episode not found")
        expect(page.locator("#episode-details")).to_be_hidden()
    intruder.history("00777001")
    expect(page.locator("#history-message")).to_have_text("No episodes for this patient.")

    # The owner still has it, untouched.
    owner.open_episode(episode)
    expect(owner.page.locator("#episode-fields")).to_contain_text("Warfarin INR 5.2")
