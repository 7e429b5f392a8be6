"""Train deid's sequence tagger (deid/tagger.py) on the tuning splits of the clinical fixture set.

    python scripts/train_tagger.py          # rewrite deid/data/tagger.crfsuite and tagger.json
    python scripts/train_tagger.py --cv     # grouped cross-validation on the tuning splits; writes nothing
    python scripts/train_tagger.py --cv-engine   # the same folds, run through the whole engine

Only the tuning splits are read (dev*, test, holdout); the held-out splits holdout2, holdout3, ...
are never trained on, so that their figures stay a measure of text the model has not seen. The
cross-validation holds out whole splits (each written by a different author), three folds, and
reports recall and precision of the rules alone and of the rules with the tagger at several
thresholds: the tagger's THRESHOLD is chosen from it. --cv-engine runs each held-out third through the
whole engine with its fold's model (so that the NER model reads only what that model left undecided,
as the shipped engine does on new text), and reports recall per entity and precision.

Training is deterministic (L-BFGS over the notes in file order): tests/deid/test_tagger.py checks
that the committed model's manifest matches the fixture notes and the feature code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import pycrfsuite

from deid import Deidentifier
from deid.lexicon import Lexicon
from deid.recognizers.ner import SpacyNerRecognizer
from deid.tagger import LABELS, MODEL_FILE, SequenceTagger, WordFeatures, line_items, lines

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "bench" / "data" / "clinical_deid" / "notes.jsonl"
DATA = ROOT / "deid" / "data"
MANIFEST = "tagger.json"
HELD_OUT = re.compile(r"holdout\d+")
TRAINER_PARAMS = {"c1": 0.1, "c2": 0.01, "max_iterations": 100, "feature.possible_transitions": True}
CV_FOLDS = 3
CV_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
ENTITY_LABEL = {entity: label for label, entity in LABELS.items()}


def tuning_notes() -> list[dict]:
    notes = [json.loads(line) for line in NOTES.read_text(encoding="utf-8").splitlines()]
    return [n for n in notes if not HELD_OUT.fullmatch(n["split"])]


def sequences(note: dict, words: WordFeatures) -> Iterable[tuple[list[list[str]], list[str]]]:
    """Each line of a note as (features, labels): a token takes the label of the gold span it touches."""
    gold = [(g["start"], g["end"], ENTITY_LABEL.get(g["entity"], "O")) for g in note["phi"]]
    for offset, line in lines(note["text"]):
        spans, items = line_items(line, words)
        if not items:
            continue
        labels = []
        for start, end in spans:
            touching = (lab for gs, ge, lab in gold if gs < offset + end and offset + start < ge)
            labels.append(next(touching, "O"))
        yield items, labels


def train(notes: Sequence[dict], words: WordFeatures, path: Path) -> None:
    trainer = pycrfsuite.Trainer(verbose=False)
    for note in notes:
        for items, labels in sequences(note, words):
            trainer.append(items, labels)
    trainer.set_params(TRAINER_PARAMS)
    trainer.train(str(path))


def fingerprint(notes: Sequence[dict]) -> str:
    """What the model was trained from: the notes and the code that turns them into features."""
    digest = hashlib.sha256()
    for note in notes:
        digest.update(json.dumps(note, ensure_ascii=False, sort_keys=True).encode())
    # the features read the word lists, so a change to any of them changes what the model saw
    for path in [ROOT / "deid" / "tagger.py", *sorted((ROOT / "deid" / "data").glob("*.t[xs][tv]"))]:
        digest.update(path.read_bytes())
    digest.update(json.dumps(TRAINER_PARAMS, sort_keys=True).encode())
    return digest.hexdigest()


def covered(text: str, gold: dict, spans: Iterable[tuple[int, int]]) -> bool:
    """As bench/deid_eval.py counts it: every non-space character of the gold span is redacted."""
    redacted = [text[i].isspace() for i in range(gold["start"], gold["end"])]
    for start, end in spans:
        for i in range(max(start, gold["start"]), min(end, gold["end"])):
            redacted[i - gold["start"]] = True
    return all(redacted)


def cross_validate(notes: list[dict], lexicon: Lexicon) -> None:
    """Recall and precision of the engine without the tagger, then with each fold's tagger's
    findings added (the NER model reads as it does without the tagger: an approximation)."""
    deid = Deidentifier(tagger=False)
    rules = {
        n["id"]: [(s.start, s.end) for s in r.spans]
        for n, r in zip(notes, deid.deidentify_batch([n["text"] for n in notes]), strict=True)
    }
    tagged: dict[float, dict[str, list[tuple[int, int]]]] = {t: {} for t in CV_THRESHOLDS}
    words = WordFeatures(lexicon)
    ner = SpacyNerRecognizer(lexicon)
    for fold, held in enumerate(cv_folds(notes)):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / MODEL_FILE
            train([n for n in notes if n["split"] not in held], words, path)
            tagger = SequenceTagger(lexicon, path.read_bytes())
        for note in (n for n in notes if n["split"] in held):
            for t in CV_THRESHOLDS:
                tagged[t][note["id"]] = [
                    (r.start, r.end) for r in tagger.analyze(note["text"], ner.accept, t).found
                ]
        sys.stdout.write(f"fold {fold + 1}/{CV_FOLDS} done\n")
    report("rules", notes, rules, {})
    for t in CV_THRESHOLDS:
        report(f"rules + tagger at {t}", notes, rules, tagged[t])


def cv_folds(notes: list[dict]) -> list[set[str]]:
    """The held-out splits of each fold: whole splits (each an author's), shuffled once, dealt out."""
    splits = sorted({n["split"] for n in notes})
    random.Random(0).shuffle(splits)
    return [set(splits[fold::CV_FOLDS]) for fold in range(CV_FOLDS)]


def cross_validate_engine(notes: list[dict], lexicon: Lexicon) -> None:
    """Recall per entity and precision of the whole engine, without the tagger and with each fold's."""
    baseline = Deidentifier(tagger=False)
    engine_spans: dict[str, dict[str, list[tuple[int, int]]]] = {
        "without the tagger": {},
        "with the fold's": {},
    }
    for fold, held in enumerate(cv_folds(notes)):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / MODEL_FILE
            train([n for n in notes if n["split"] not in held], WordFeatures(lexicon), path)
            engine = Deidentifier(tagger_model=path.read_bytes())
        for note in (n for n in notes if n["split"] in held):
            for title, deid in (("without the tagger", baseline), ("with the fold's", engine)):
                engine_spans[title][note["id"]] = [
                    (s.start, s.end) for s in deid.deidentify(note["text"]).spans
                ]
        sys.stdout.write(f"fold {fold + 1}/{CV_FOLDS} done\n")
    for title, spans in engine_spans.items():
        report(f"engine {title}", notes, spans, {})
        caught: dict[str, list[int]] = {}
        for note in notes:
            for gold in note["phi"]:
                counts = caught.setdefault(gold["entity"], [0, 0])
                counts[0] += covered(note["text"], gold, spans[note["id"]])
                counts[1] += 1
        sys.stdout.write("  " + "  ".join(f"{e} {c / t:.4f}" for e, (c, t) in sorted(caught.items())) + "\n")


def report(title: str, notes: list[dict], rules: dict, tagged: dict) -> None:
    caught = total = good = predicted = 0
    for note in notes:
        spans = rules[note["id"]] + tagged.get(note["id"], [])
        for gold in note["phi"]:
            caught += covered(note["text"], gold, spans)
            total += 1
        extra = [
            s
            for s in tagged.get(note["id"], [])
            if not any(s[0] < e and b < s[1] for b, e in rules[note["id"]])
        ]
        for start, end in [*rules[note["id"]], *extra]:
            predicted += 1
            good += any(start < g["end"] and g["start"] < end for g in note["phi"])
    sys.stdout.write(f"{title:24} recall {caught / total:.4f}  precision {good / predicted:.4f}\n")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--cv", action="store_true", help="cross-validate on the tuning splits; write nothing"
    )
    parser.add_argument(
        "--cv-engine", action="store_true", help="the same folds through the whole engine; write nothing"
    )
    args = parser.parse_args()
    notes = tuning_notes()
    lexicon = Lexicon.load()
    if args.cv:
        cross_validate(notes, lexicon)
        return
    if args.cv_engine:
        cross_validate_engine(notes, lexicon)
        return
    started = time.perf_counter()
    train(notes, WordFeatures(lexicon), DATA / MODEL_FILE)
    manifest = {
        "notes": len(notes),
        "splits": sorted({n["split"] for n in notes}),
        "fingerprint": fingerprint(notes),
    }
    (DATA / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    sys.stdout.write(f"trained on {len(notes)} notes in {time.perf_counter() - started:.0f} s\n")


if __name__ == "__main__":
    main()
