"""The learned tagger (deid.tagger): what it finds, what it keeps, and how its model was made."""

from __future__ import annotations

import gc
import json
import re
import threading
from importlib import resources
from pathlib import Path
from types import ModuleType

import pycrfsuite
import pytest

from deid import Deidentifier, DeidError
from deid import tagger as tagger_module
from deid.lexicon import Lexicon
from deid.recognizers.ner import SpacyNerRecognizer
from deid.tagger import KNOWN_ZIPF, MODEL_FILE, SequenceTagger, WordFeatures, line_items
from tests.deid.script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "deid" / "data" / MODEL_FILE


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load()


@pytest.fixture(scope="module")
def tagger(lexicon: Lexicon) -> SequenceTagger:
    return SequenceTagger(lexicon)


@pytest.fixture(scope="module")
def accept(lexicon: Lexicon) -> tagger_module.Accept:
    return SpacyNerRecognizer(lexicon).accept


def _script() -> ModuleType:
    return load_script("train_tagger")


# Written for this test (not from any fixture split); the rules alone leave each of them, or part.
@pytest.mark.parametrize(
    ("text", "phi"),
    [
        ("Cardiology f/u with Okonkwo-Baptiste in 2 wks.", "Okonkwo-Baptiste"),
        ("He coaches Little League at Pemberton Field every summer.", "Pemberton Field"),
        ("lives out past Hatcher Gap, no running water", "Hatcher Gap"),
    ],
)
def test_tagger_finds_what_the_rules_leave(
    deid: Deidentifier, tagger: SequenceTagger, accept: tagger_module.Accept, text: str, phi: str
) -> None:
    start = text.index(phi)
    found = tagger.analyze(text, accept).found
    assert any(r.start <= start and start + len(phi) <= r.end for r in found), found
    assert phi not in deid.deidentify(text).text


@pytest.mark.parametrize(
    "text",
    [
        "Glasgow coma scale 14, Framingham risk score 12%",
        "dr will call back in the am; wife may visit tomorrow",
        "Referred to the Clinic; sent to the Heart Hospital",
        "Beach chair position; started 2nd rd of chemo",
        "Seen on Monday, plan reviewed with team",
    ],
)
def test_tagger_keeps_clinical_look_alikes(
    tagger: SequenceTagger, accept: tagger_module.Accept, text: str
) -> None:
    assert tagger.analyze(text, accept).found == []


def test_settled_tokens_are_the_ones_the_model_is_sure_of(
    tagger: SequenceTagger, accept: tagger_module.Accept
) -> None:
    text = "Pt ambulating with walker, tolerating diet. Daughter Rosalind at bedside."
    reading = tagger.analyze(text, accept)
    settled = {text[s:e] for s, e in reading.settled}
    assert {"walker", "diet", "tolerating"} <= settled
    assert "Rosalind" not in settled


def test_model_holds_no_rare_word(lexicon: Lexicon) -> None:
    """Words are features only when common English, clinical or short: the model learns how
    names are written, and holds no one's name (see deid.tagger)."""
    info = pycrfsuite.Tagger()
    info.open(str(MODEL))
    words = {
        attr.split("=", 1)[1]
        for attr, _ in info.info().state_features
        if re.fullmatch(r"(?:-?\d:)?w=.*", attr)
    } | {
        part
        for attr, _ in info.info().state_features
        if attr.startswith("bi=")
        for part in attr[3:].split("|")
    }
    assert len(words) > 1000
    rare = [
        w
        for w in words
        if w.isalpha() and len(w) > 2 and lexicon.zipf(w) < KNOWN_ZIPF and not lexicon.is_clinical(w)
    ]
    assert rare == []


def test_model_matches_its_training_data() -> None:
    script = _script()
    manifest = json.loads((ROOT / "deid" / "data" / script.MANIFEST).read_text(encoding="utf-8"))
    notes = script.tuning_notes()
    assert manifest["fingerprint"] == script.fingerprint(notes), (
        "deid/data/tagger.crfsuite is stale: run python scripts/train_tagger.py"
    )


def test_held_out_splits_are_never_trained_on() -> None:
    script = _script()
    all_splits = {json.loads(line)["split"] for line in script.NOTES.read_text(encoding="utf-8").splitlines()}
    trained = {note["split"] for note in script.tuning_notes()}
    assert {"holdout2", "holdout19"} <= all_splits - trained
    assert {"dev", "test", "holdout", "dev30"} <= trained
    assert not any(re.fullmatch(r"holdout\d+", split) for split in trained)


def test_training_is_deterministic(lexicon: Lexicon, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = _script()
    monkeypatch.setattr(script, "TRAINER_PARAMS", {**script.TRAINER_PARAMS, "max_iterations": 15})
    notes = script.tuning_notes()[:40]
    words = WordFeatures(lexicon)
    script.train(notes, words, tmp_path / "a")
    script.train(notes, words, tmp_path / "b")
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b").read_bytes()


def test_model_buffer_outlives_its_caller(lexicon: Lexicon, accept: tagger_module.Accept) -> None:
    """CRFsuite reads the model in place: a tagger built from a temporary bytes object must keep it."""
    tagger = SequenceTagger(lexicon, bytes(bytearray(MODEL.read_bytes())))
    gc.collect()
    _ = [bytes(2_000_000) for _ in range(4)]  # reuse freed memory, if any was freed
    assert tagger.analyze("Cardiology f/u with Okonkwo-Baptiste in 2 wks.", accept).found


def test_tagger_is_thread_safe(tagger: SequenceTagger, accept: tagger_module.Accept) -> None:
    texts = [
        f"Seen by Dr {name} at {place} with daughter {kin}."
        for name, place, kin in [
            ("Okonkwo-Baptiste", "Pemberton Field", "Rosalind"),
            ("Vasquez", "Hatcher Gap", "Imogen"),
            ("Brannigan", "Larkspur Commons", "Tadeusz"),
        ]
    ] * 20
    serial = [tagger.analyze(t, accept).found for t in texts]
    parallel: dict[int, list[object]] = {}

    def work(i: int) -> None:
        parallel[i] = tagger.analyze(texts[i], accept).found

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(texts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [parallel[i] for i in range(len(texts))] == serial


def test_word_memo_is_bounded(lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tagger_module, "MEMO_LIMIT", 50)
    words = WordFeatures(lexicon)
    for i in range(500):
        line_items(f"word{i} Name{i}x", words)
    assert len(words._memo) <= 50


def test_features_name_numbers_by_length_only(lexicon: Lexicon) -> None:
    _, items = line_items("MRN 4471902 acct V771093245", WordFeatures(lexicon))
    flat = " ".join(" ".join(item) for item in items)
    assert "4471902" not in flat and "v771093245" not in flat.lower()
    assert "w=<num6>" in flat


def test_a_model_that_cannot_load_stops_the_deidentifier(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tagger_module, "MODEL_FILE", "no-such-model.crfsuite")
    with pytest.raises(DeidError):
        Deidentifier()


def test_a_deidentifier_without_the_tagger_still_runs_the_rules_and_ner() -> None:
    """tagger=False (for measuring what the tagger adds) reads nothing for the NER gate either."""
    result = Deidentifier(tagger=False).deidentify("pt seen by dr healey on 7/22, husband Jim at bedside")
    assert result.text == "pt seen by dr [NAME] on [DATE], husband [NAME] at bedside"


def test_a_deidentifier_takes_another_tagger_model_for_cross_validation() -> None:
    """scripts/train_tagger.py --cv-engine hands each fold's model to the engine; a model that
    cannot be read stops it as the shipped one would."""
    with pytest.raises(DeidError):
        Deidentifier(tagger_model=b"not a crfsuite model")
    shipped = resources.files("deid").joinpath("data").joinpath(MODEL_FILE).read_bytes()
    text = "neighbour Tomasz drives her; seen at Cedar Bluff last spring"
    assert Deidentifier(tagger_model=shipped).deidentify(text) == Deidentifier().deidentify(text)
