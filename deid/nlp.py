"""The spaCy pipeline behind Presidio's NLP engine, loaded offline and only with what deid uses.

Only the NER component runs (en_core_web_sm's NER has its own embedding layer; the tagger, parser
and lemmatizer are not needed by any deid recognizer). thinc's matrix products go through numpy's
BLAS: on the CPUs measured here thinc's bundled BLIS kernels are ~5x slower than numpy's OpenBLAS.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import spacy
from presidio_analyzer.nlp_engine import NerModelConfiguration, SpacyNlpEngine
from thinc.api import NumpyOps, set_current_ops

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
