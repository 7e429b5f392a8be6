"""Clinical tags: vocabulary terms found whole, longest form first, in order, each tag once."""

from __future__ import annotations

from jarvis.memory.text import MAX_TAGS, VOCABULARY_PATH, clinical_tags


def test_longest_form_wins_and_order_and_case_are_kept() -> None:
    assert clinical_tags("SEPTIC SHOCK after sepsis; then septic shock again") == ["septic shock", "sepsis"]


def test_forms_with_punctuation_and_whole_words_only() -> None:
    assert clinical_tags("C. diff colitis") == ["clostridioides difficile"]
    assert clinical_tags("presepsis, sepsis-like, cefepimes") == []
    assert clinical_tags("cefepime.") == ["cefepime"]


def test_at_most_max_tags() -> None:
    lines = [line for line in VOCABULARY_PATH.read_text(encoding="utf-8").splitlines() if "\t" in line]
    forms: dict[str, str] = {}
    for line in lines:
        surface, _, tag = line.partition("\t")
        forms.setdefault(tag.strip(), surface.strip())
    surfaces = list(forms.values())[: MAX_TAGS + 5]
    assert clinical_tags(" ; ".join(surfaces)) == list(forms)[:MAX_TAGS]
