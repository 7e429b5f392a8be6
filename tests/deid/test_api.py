"""The deid library contract of DESIGN.md §9: spans, known names, batches, failure, threads."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from deid import ENTITIES, Deidentifier, DeidError

NOTE = (
    "Pt Gita Bhat (MRN 00482913) seen 7/22 by dr healey at CALVERT HOSP. "
    "Husband Jim: 617-555-0142. On metoprolol 25 mg BID."
)


def test_spans_are_sorted_non_overlapping_offsets_into_the_original(deid: Deidentifier) -> None:
    result = deid.deidentify(NOTE)
    spans = result.spans
    assert spans, "nothing found"
    assert all(a.end <= b.start for a, b in zip(spans, spans[1:], strict=False))
    assert all(s.entity in ENTITIES and 0 < s.score <= 1 for s in spans)
    rebuilt, last = [], 0
    for s in spans:
        rebuilt.append(NOTE[last : s.start] + f"[{s.entity}]")
        last = s.end
    rebuilt.append(NOTE[last:])
    assert "".join(rebuilt) == result.text


@pytest.mark.parametrize(
    "form",
    ["Gita Bhat", "GITA BHAT", "gita bhat", "Gita", "Bhat", "Bhat's", "G. Bhat", "G Bhat", "Bhat, Gita"],
)
def test_known_names_are_removed_in_any_form(deid: Deidentifier, form: str) -> None:
    text = f"Question about {form} and her inhaler technique."
    out = deid.deidentify(text, known_names=("Gita Bhat",)).text
    assert "Gita" not in out and "Bhat" not in out and "GITA" not in out and "gita" not in out.lower()


def test_known_name_does_not_eat_other_words(deid: Deidentifier) -> None:
    out = deid.deidentify("Annual review: Ann is stable.", known_names=("Ann Lee",)).text
    assert out.startswith("Annual review: [NAME]")


def test_batch_equals_single(deid: Deidentifier) -> None:
    texts = [NOTE, "no phi here, just a question about dosing", "Seen by Dr. Patel on 3/14/2024."]
    assert deid.deidentify_batch(texts) == [deid.deidentify(t) for t in texts]


def test_deterministic_and_thread_safe(deid: Deidentifier) -> None:
    expected = deid.deidentify(NOTE)
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda _: deid.deidentify(NOTE), range(24)))
    assert all(r == expected for r in results)


def test_the_model_keeps_no_word_of_the_texts_it_read(deid: Deidentifier) -> None:
    """spaCy's StringStore would otherwise keep every name and number it saw for the process's life."""
    strings = deid._nlp_engine.nlp["en"].vocab.strings  # type: ignore[index]
    before = len(strings)
    texts = [
        f"Pt Quorvanex Blimmerton{i} seen by Dr Zatharel at Wexxingham, MRN 9981726{i}, Skrellby town."
        for i in range(4)
    ]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(deid.deidentify, texts))
    assert all("Quorvanex" not in r.text and "9981726" not in r.text for r in results)
    assert len(strings) == before
    assert not any(
        word in strings for word in ("Quorvanex", "Blimmerton0", "Zatharel", "Wexxingham", "99817260")
    )


def test_internal_failure_raises_deid_error_without_the_text(
    deid: Deidentifier, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: object, **_kwargs: object) -> object:
        raise RuntimeError("Gita Bhat 00482913")  # a third-party error that quotes its input

    monkeypatch.setattr(deid._analyzer, "analyze", broken)
    with pytest.raises(DeidError) as info:
        deid.deidentify(NOTE)
    assert "Bhat" not in str(info.value) and "00482913" not in str(info.value)
    assert info.value.__cause__ is None and info.value.__context__ is not None  # not chained for display
    with pytest.raises(DeidError):
        deid.deidentify_batch([NOTE])


def test_bad_input_is_refused(deid: Deidentifier) -> None:
    with pytest.raises(DeidError):
        deid.deidentify(b"bytes are not text")  # type: ignore[arg-type]
    small = Deidentifier.__new__(Deidentifier)
    small.__dict__.update(deid.__dict__)
    small._max_chars = 10
    with pytest.raises(DeidError, match="longer than 10"):
        small.deidentify("x" * 11)


def test_empty_text(deid: Deidentifier) -> None:
    result = deid.deidentify("")
    assert result.text == "" and result.spans == ()


def test_ner_everywhere_finds_at_least_as_much(deid: Deidentifier) -> None:
    everywhere = Deidentifier(ner_everywhere=True)
    text = "Seen with Oksana at the Lakeside Cardiology office; CHF stable, on lasix 40 daily."
    selective = {(s.start, s.end) for s in deid.deidentify(text).spans}
    full = everywhere.deidentify(text).spans
    assert all(any(f.start <= a and b <= f.end for f in full) for a, b in selective)
