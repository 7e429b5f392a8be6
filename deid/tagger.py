"""A learned sequence tagger (a CRF) that finds the names and places no rule recognizer finds.

The rules find what has a shape or a cue; text keeps naming people and places in ways no rule was
written for ("seen at Cedar Bluff last spring", "her neighbour Tomasz drives her"). A linear-chain
CRF over word features learns the soft combination of weak evidence those need: letter case and
shape, how common a word is in English, whether the census knows it as a name, whether it is a
clinical word, the words around it. Its spans are added to the rules' (the union is redacted).

The features never hold a rare word itself: a word is named only when it is common English (Zipf
>= KNOWN_ZIPF), clinical, short or not a word; otherwise only its shape, its last letters and the
dictionaries' verdicts on it are. So the model learns how names and places are written, not the
fixtures' names, and it holds no name of anyone.

The model (data/tagger.crfsuite) is trained by scripts/train_tagger.py on the tuning splits of
bench/data/clinical_deid only; the held-out splits are never trained on (README: How the
de-identifier is evaluated). CRFsuite via python-crfsuite (MIT; CRFsuite itself BSD).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources

import pycrfsuite
from presidio_analyzer import RecognizerResult

from deid.lexicon import Lexicon
from deid.text import line_case
from deid.types import LOCATION, NAME

MODEL_FILE = "tagger.crfsuite"
# The CRF's labels and the entities they stand for ("O": not PHI).
LABELS = {"N": NAME, "L": LOCATION}
ENTITIES = tuple(LABELS.values())
# A token whose marginal probability of a PHI label reaches this is redacted. By grouped
# cross-validation on the tuning splits (scripts/train_tagger.py --cv), 0.3 would catch 0.16 points
# more of the spans at 0.2 points of precision.
THRESHOLD = 0.5
# Words at least this common in English are features by themselves ("at", "daughter", "clinic").
KNOWN_ZIPF = 3.5
# Below this Zipf frequency a word is rare enough to be a name or a place by itself ("Tomasz", "Cedar").
DISTINCTIVE_ZIPF = 4.0
# ... and a run without such a word is kept only when the model is this sure of every token of it.
SURE = 0.9
# A token whose every PHI label is less probable than this is settled as not PHI: the NER model is
# not woken for it (deid.segments). Cross-validated: 0.07% of spans lost, 0.4% more precision (fewer
# of the NER model's false finds), and the NER model woken for fewer questions.
SETTLED = 0.02
RUN_PARTS = re.compile(r"[\s'’.,:;()/-]+")
# Word features are memoised per tagger; the memo is dropped when it grows past this.
MEMO_LIMIT = 50_000
# Words (letters of any script with inner apostrophes, hyphens or dots), numbers, or one symbol.
TOKEN = re.compile(r"[^\W_]+(?:['’.-][^\W_]+)*|[^\w\s]")
SHAPE_RUNS = re.compile(r"(.)\1+")
SHAPE_TABLE = str.maketrans(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
    "X" * 26 + "x" * 26 + "d" * 10,
)
CONTEXT_OFFSETS = (-2, -1, 1, 2)
NO_NEIGHBOUR = {off: f"{off}:none" for off in CONTEXT_OFFSETS}
# The dictionaries' verdicts that the neighbouring words also carry.
NEIGHBOUR_KEYS = ("first", "sur", "nl", "clin", "pstart", "town")


# (text, start, end, entity) -> the span to redact, or None to drop it
Accept = Callable[[str, int, int, str], "tuple[int, int] | None"]


def shape(token: str) -> str:
    """Letter case and digits with runs shortened: "McArthur" -> "XxXxx", "4B-12" -> "dX-dd"."""
    return SHAPE_RUNS.sub(r"\1\1", token.translate(SHAPE_TABLE))[:8]


@dataclass(frozen=True, slots=True)
class Word:
    """One word's CRF feature strings, built once: its own, and those it lends its neighbours at
    each offset (a line's features are then lists joined, not strings formatted)."""

    word: str | None  # the word itself, when it may be a feature (see the module's docstring)
    own: tuple[str, ...]
    as_neighbour: dict[int, tuple[str, ...]]

    @classmethod
    def of(cls, token: str, facts: dict[str, str]) -> Word:
        own = tuple(f"{k}={v}" for k, v in facts.items()) + (("cap",) if token[:1].isupper() else ())
        lent = {}
        for off in CONTEXT_OFFSETS:
            feats = [f"{off}:sh={facts['sh']}"]
            if "w" in facts:
                feats.append(f"{off}:w={facts['w']}")
            if off in (-1, 1):
                feats.extend(f"{off}:{k}={facts[k]}" for k in NEIGHBOUR_KEYS if k in facts)
            lent[off] = tuple(feats)
        return cls(facts.get("w"), own, lent)


class WordFeatures:
    """The features of one word on its own: what it looks like and what the dictionaries say."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        self._memo: dict[str, Word] = {}

    def __call__(self, token: str) -> Word:
        found = self._memo.get(token)
        if found is None:
            if len(self._memo) >= MEMO_LIMIT:
                self._memo.clear()
            found = self._memo[token] = Word.of(token, self._compute(token))
        return found

    def _compute(self, token: str) -> dict[str, str]:
        lex = self.lexicon
        low = token.lower()
        zipf = lex.zipf(low)
        out = {"sh": shape(token), "z": str(int(zipf))}
        if not token[0].isalpha() or any(c.isdigit() for c in token):
            # numbers and codes by their length only: the model must not learn any one of them
            if token.isdigit():
                out["w"] = f"<num{min(len(token), 6)}>"
            elif not token.isalnum():
                out["w"] = token  # a symbol
            return out
        clinical = lex.is_clinical(low)
        if zipf >= KNOWN_ZIPF or clinical or len(token) <= 2:
            out["w"] = low
        out["suf3"] = low[-3:]
        if clinical:
            out["clin"] = "1"
        if lex.is_clinical_term(low):
            out["cterm"] = "1"
        if lex.is_first_name(low):
            out["first"] = "1"
        rank = lex.surname_rank_of(low)
        if rank is not None:
            out["sur"] = "a" if rank <= 1_000 else "b" if rank <= 10_000 else "c"
        likelihood = lex.name_likelihood(low)
        if likelihood:
            out["nl"] = str(likelihood)
        if lex.starts_place(low):
            out["pstart"] = "1"
        if lex.is_town(low):
            out["town"] = "1"
        if low in lex.organisation_starts:
            out["ostart"] = "1"
        if low in lex.state_names or (token.isupper() and token in lex.state_abbrevs):
            out["state"] = "1"
        return out


def line_items(line: str, words: WordFeatures) -> tuple[list[tuple[int, int]], list[list[str]]]:
    """The tokens of one line (offsets in the line) and each token's CRF features."""
    matches = list(TOKEN.finditer(line))
    case = "case=" + line_case(line).value
    own = [words(m.group()) for m in matches]
    n = len(own)
    items: list[list[str]] = []
    for i, word in enumerate(own):
        feats = ["bias", case, *word.own]
        if i == 0:
            feats.append("BOL")
        if i == n - 1:
            feats.append("EOL")
        for off in CONTEXT_OFFSETS:
            j = i + off
            if 0 <= j < n:
                feats.extend(own[j].as_neighbour[off])
            else:
                feats.append(NO_NEIGHBOUR[off])
        if i > 0 and word.word is not None and own[i - 1].word is not None:
            feats.append(f"bi={own[i - 1].word}|{word.word}")
        items.append(feats)
    return [m.span() for m in matches], items


def lines(text: str) -> Iterator[tuple[int, str]]:
    """Each non-blank line of a text with its offset: a line is one sequence for the CRF."""
    offset = 0
    for line in text.split("\n"):
        if line.strip():
            yield offset, line
        offset += len(line) + 1


@dataclass(frozen=True, slots=True)
class Reading:
    """What the tagger read in a text: the names and places it found, and the spans of the tokens
    it is all but certain are not PHI (the NER model need not wake for those)."""

    found: list[RecognizerResult]
    settled: list[tuple[int, int]]


class SequenceTagger:
    """Tags the words of a text with the CRF; thread-safe (one CRFsuite tagger behind a lock)."""

    def __init__(self, lexicon: Lexicon, model: bytes | None = None) -> None:
        if model is None:
            model = resources.files("deid").joinpath("data").joinpath(MODEL_FILE).read_bytes()
        # CRFsuite reads the model from this buffer without copying it: it must live as long as the tagger
        self._model = model
        self._tagger = pycrfsuite.Tagger()
        self._tagger.open_inmemory(self._model)
        self._words = WordFeatures(lexicon)
        self._lock = threading.Lock()

    def analyze(self, text: str, accept: Accept, threshold: float = THRESHOLD) -> Reading:
        """Runs of tokens the model gives one PHI label with probability >= threshold, each kept
        when it holds a distinctive word or the model is SURE of it, and `accept` takes it (the NER
        recognizer's test of a name or a place, which keeps clinical look-alikes out); and the
        tokens the model is all but certain are not PHI."""
        reading = Reading([], [])
        for offset, line in lines(text):
            for start, end, entity, score in self._runs(line, threshold, offset, reading.settled):
                if not self._distinctive(line[start:end]) and (
                    score < SURE or self._drug_first(line[start:end])
                ):
                    continue
                kept = accept(text, offset + start, offset + end, entity)
                if kept:
                    reading.found.append(RecognizerResult(entity, kept[0], kept[1], score))
        return reading

    def _runs(
        self, line: str, threshold: float, offset: int, settled: list[tuple[int, int]]
    ) -> list[tuple[int, int, str, float]]:
        """(start, end, entity, least probability) of each run of tokens with one PHI label; the
        tokens below SETTLED go to `settled`, with offsets into the text."""
        spans, items = line_items(line, self._words)
        if not items:
            return []
        with self._lock:
            self._tagger.set(items)
            marginal = self._tagger.marginal
            probs = [[marginal(label, k) for label in LABELS] for k in range(len(items))]
        runs: list[tuple[int, int, str, float]] = []
        previous = -1  # the index of the last token in a run
        for k, ((start, end), p) in enumerate(zip(spans, probs, strict=True)):
            best = max(p)
            if best < threshold:
                if best < SETTLED:
                    settled.append((offset + start, offset + end))
                continue
            entity = ENTITIES[p.index(best)]
            if runs and previous == k - 1 and runs[-1][2] == entity:
                runs[-1] = (runs[-1][0], end, entity, min(runs[-1][3], best))
            else:
                runs.append((start, end, entity, best))
            previous = k
        return runs

    def _drug_first(self, words: str) -> bool:
        """A run led by a drug or clinical abbreviation that is not a town's name: "Tums St" (stat)."""
        first = RUN_PARTS.split(words, maxsplit=1)[0]
        lex = self._words.lexicon
        return lex.is_clinical_term(first) and not lex.is_town(words)

    def _distinctive(self, words: str) -> bool:
        """Whether a run holds a word that can carry a name or a place on the model's word alone:
        three letters or more, not clinical and not common English. A run without one ("Heart
        Hospital", "dr will call", "Glasgow coma scale", "Monday") is the model reading a shape that
        clinical words have too; it is kept only when the model is SURE of it."""
        lex = self._words.lexicon
        return any(
            len(part) >= 3
            and part.isalpha()
            and lex.zipf(part) < DISTINCTIVE_ZIPF
            and not lex.is_clinical(part)
            for part in RUN_PARTS.split(words.lower())
        )
