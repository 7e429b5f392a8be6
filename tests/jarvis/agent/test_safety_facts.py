"""Safety-critical facts extracted from what the clinician says (de-identified text)."""

from __future__ import annotations

import pytest

from jarvis.agent.safety_facts import extract_safety_facts


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[NAME] is allergic to penicillin - anaphylaxis.", [("allergy", "penicillin: anaphylaxis")]),
        ("sulfa allergy (rash). what abx for UTI?", [("allergy", "sulfa: rash")]),
        ("Allergies: penicillin, codeine", [("allergy", "penicillin"), ("allergy", "codeine")]),
        ("NKDA. INR 3.4", [("allergy", "no known drug allergies")]),
        ("pt had angioedema on lisinopril, now HTN again", [("adverse_reaction", "lisinopril: angioedema")]),
        ("developed a rash with amoxicillin last year", [("adverse_reaction", "amoxicillin: rash")]),
        ("metformin is contraindicated given eGFR 20", [("contraindication", "metformin")]),
        (
            "On metformin 500 mg bid and lisinopril 10 mg daily.",
            [("medication", "metformin 500 mg bid"), ("medication", "lisinopril 10 mg daily")],
        ),
        # Questions and advice are not facts about the patient.
        ("What dose of vancomycin?", []),
        ("Give ceftriaxone 2 g IV daily?", []),
        ("K 6.1 after 40 mEq KCl", []),
        ("any allergies?", []),
    ],
)
def test_extraction(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(f.category.value, f.text) for f in extract_safety_facts(text)] == expected
