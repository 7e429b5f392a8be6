"""Names the caller already knows (the patient's, the doctor's): removed in any case and form —
full, first, last, possessive, and initials with the surname ("G. Bhat", "G Bhat")."""

from __future__ import annotations

import re
from collections.abc import Iterable

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.types import NAME

PART = re.compile(r"[^\W\d_](?:[^\W\d_]|['’.-][^\W\d_])*")


def name_variants(names: Iterable[str]) -> list[str]:
    """Every surface form to look for, longest first so that "Gita Bhat" wins over "Gita"."""
    forms: set[str] = set()
    for full in names:
        parts = [p for p in PART.findall(full) if len(p.strip(".")) >= 2]
        if not parts:
            continue
        forms.add(" ".join(parts))
        forms.update(parts)
        if len(parts) >= 2:
            first, last = parts[0], parts[-1]
            forms.add(f"{first} {last}")
            forms.add(f"{last}, {first}")
            forms.add(f"{first[0]}. {last}")
            forms.add(f"{first[0]} {last}")
            forms.add(f"{first[0]}.{last}")
    return sorted(forms, key=len, reverse=True)


class KnownNameRecognizer(EntityRecognizer):
    """Built per request from the names passed to Deidentifier.deidentify(known_names=...)."""

    def __init__(self, names: Iterable[str]) -> None:
        variants = name_variants(names)
        body = "|".join(re.escape(v).replace(r"\ ", r"\s+") for v in variants)
        # Word boundaries that also hold next to apostrophes: "Bhat's" matches "Bhat".
        self._regex = re.compile(rf"(?<![^\W_])(?:{body})(?![^\W_])", re.IGNORECASE) if body else None
        super().__init__(supported_entities=[NAME], supported_language="en", name="KnownNameRecognizer")

    def load(self) -> None:
        """Compiled in __init__."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        if self._regex is None:
            return []
        return [RecognizerResult(NAME, m.start(), m.end(), 1.0) for m in self._regex.finditer(text)]
