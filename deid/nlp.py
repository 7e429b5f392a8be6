"""The spaCy pipeline behind Presidio's NLP engine, loaded offline and only with what deid uses.

deid runs the model itself, on the segments of a text chosen by deid.segments, and hands its
entities to Presidio in an NlpArtifacts, with offsets into the whole text.

Only the NER component runs (en_core_web_sm's NER has its own embedding layer; the tagger, parser
and lemmatizer are not needed by any deid recognizer). thinc's matrix products go through numpy's
BLAS: on the CPUs measured here thinc's bundled BLIS kernels are ~5x slower than numpy's OpenBLAS.
The model's matrices are small, so OpenBLAS runs them on one thread: its thread pool costs more
than it gains on them, and when other processes hold the cores it makes the model ~6x slower.

The model reads each text inside a spaCy memory zone: otherwise its StringStore keeps every word it
has seen for the life of the process, the patients' names and MRNs among them, and grows without end.
"""

from __future__ import annotations

import ctypes
import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import spacy
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
from thinc.api import NumpyOps, set_current_ops

logger = logging.getLogger(__name__)

USED_LABELS = ("PERSON", "GPE", "LOC", "FAC", "ORG")
UNUSED_LABELS = (
    "NORP", "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL",
    "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE", "PRODUCT",
)  # fmt: skip


class NumpyBlasOps(NumpyOps):  # type: ignore[misc]
    """NumpyOps whose gemm uses numpy.matmul (OpenBLAS) instead of BLIS."""

    name = "numpy_blas"

    def gemm(self, x: Any, y: Any, out: Any = None, trans1: bool = False, trans2: bool = False) -> Any:
        a = x.T if trans1 else x
        b = y.T if trans2 else y
        if out is None:
            return np.matmul(a, b)
        np.matmul(a, b, out=out)
        return out


def load_nlp_engine(model_name: str) -> SpacyNlpEngine:
    """A loaded Presidio SpacyNlpEngine; never downloads (a missing model is an ImportError/OSError)."""
    set_current_ops(NumpyBlasOps())
    nlp = spacy.load(
        model_name, exclude=["tok2vec", "tagger", "parser", "attribute_ruler", "lemmatizer", "senter"]
    )
    engine = SpacyNlpEngine(
        models=[{"lang_code": "en", "model_name": model_name}],
        ner_model_configuration=NerModelConfiguration(
            model_to_presidio_entity_mapping={label: label for label in USED_LABELS},
            labels_to_ignore=list(UNUSED_LABELS),
        ),
    )
    # Handing Presidio the loaded pipeline skips its load(), which would download a missing model.
    engine.nlp = {"en": nlp}  # type: ignore[assignment]  # presidio types it as None before load()
    return engine


@dataclass(frozen=True, slots=True)
class NerEntity:
    """An entity of the model, with offsets into the whole text (the fields of a spaCy Span that
    deid's NER recognizer reads)."""

    start_char: int
    end_char: int
    label_: str


class BlasThreads:
    """The thread count of the OpenBLAS that numpy ships with (manylinux and macOS wheels), found
    the way threadpoolctl finds it; every method is a no-op where there is none."""

    SYMBOLS = (
        ("scipy_openblas_get_num_threads64_", "scipy_openblas_set_num_threads64_"),
        ("openblas_get_num_threads", "openblas_set_num_threads"),
    )

    def __init__(self) -> None:
        self._get: Callable[[], int] | None = None
        self._set: Callable[[int], None] | None = None
        folder = Path(np.__file__).parent.parent / "numpy.libs"
        for path in sorted(folder.glob("*openblas*")) if folder.is_dir() else []:
            lib = ctypes.CDLL(str(path))  # the library numpy has loaded already: same handle
            for get, set_ in self.SYMBOLS:
                if hasattr(lib, get) and hasattr(lib, set_):
                    self._get, self._set = getattr(lib, get), getattr(lib, set_)
                    return
        logger.debug("numpy's OpenBLAS not found; BLAS threads left as they are")

    @contextmanager
    def one_thread(self) -> Iterator[None]:
        if self._get is None or self._set is None:
            yield
            return
        before = self._get()
        self._set(1)
        try:
            yield
        finally:
            self._set(before)


_BLAS = BlasThreads()


def find_entities(engine: SpacyNlpEngine, text: str, segments: Sequence[tuple[int, int]]) -> list[NerEntity]:
    """The model's entities of USED_LABELS in the given (start, end) segments of `text`.

    Callers serialise calls on one engine (Deidentifier holds a lock): a memory zone's end evicts
    every string added since it began, whichever thread added it."""
    if not segments:
        return []
    with _BLAS.one_thread():
        return _find_entities(engine, text, segments)


def _find_entities(engine: SpacyNlpEngine, text: str, segments: Sequence[tuple[int, int]]) -> list[NerEntity]:
    nlp = engine.nlp["en"]  # type: ignore[index]
    found: list[NerEntity] = []
    pieces = [text[a:b] for a, b in segments]
    # The strings the text adds to the model's vocabulary are dropped when the zone ends; nothing of
    # the Doc is used after it (NerEntity holds plain offsets and a label).
    with nlp.memory_zone():
        # One segment (the common case for a question) skips pipe()'s batching machinery.
        docs = [nlp(pieces[0])] if len(pieces) == 1 else nlp.pipe(pieces, batch_size=64)
        for (offset, _), doc in zip(segments, docs, strict=True):
            found.extend(
                NerEntity(offset + e.start_char, offset + e.end_char, e.label_)
                for e in doc.ents
                if e.label_ in USED_LABELS
            )
    return found
