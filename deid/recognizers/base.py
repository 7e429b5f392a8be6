"""The shape every deid recognizer has: a Presidio EntityRecognizer driven by regular expressions.

A subclass names its ENTITY and its PATTERNS (name, regex, score). When a regex has a group named
"phi", only that group is reported, so a pattern can require context ("MRN: ...", "Dr ...") without
redacting the context itself. `validate()` is the hook for checks a regex cannot express.
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.prefilter import Scanner


class LexiconRecognizer(EntityRecognizer):
    """A Presidio recognizer that reads the shared lexicon; subclasses name their ENTITIES."""

    ENTITIES: ClassVar[tuple[str, ...]]

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        super().__init__(supported_entities=self._entities(), supported_language="en")

    def _entities(self) -> list[str]:
        return list(self.ENTITIES)

    def load(self) -> None:
        """Nothing to load: the lexicon is built once by the Deidentifier, patterns are class data."""


class RegexRecognizer(LexiconRecognizer):
    ENTITY: ClassVar[str]
    PATTERNS: ClassVar[tuple[tuple[str, str, float], ...]]
    FLAGS: ClassVar[int] = re.IGNORECASE

    def __init__(self, lexicon: Lexicon) -> None:
        self._compiled = [(name, re.compile(rx, self.FLAGS), score) for name, rx, score in self.PATTERNS]
        # Most patterns start with, or need, one of a few words ("apt", a month name): tried only there.
        self._scanners = {name: Scanner(regex) for name, regex, _ in self._compiled}
        super().__init__(lexicon)

    def _entities(self) -> list[str]:
        return [self.ENTITY]

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for name, regex, score in self._compiled:
            for match in self._scanners[name].finditer(text):
                group = "phi" if "phi" in regex.groupindex and match.group("phi") else 0
                start, end = match.span(group)
                if start < end and self.validate(text, start, end, name):
                    start, end = self.extend(text, start, end, name)
                    results.append(RecognizerResult(self.ENTITY, start, end, score))
        return results

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        """Return False to drop a match that the regex alone cannot rule out."""
        return True

    def extend(self, text: str, start: int, end: int, pattern: str) -> tuple[int, int]:  # noqa: ARG002
        """The span to redact for a validated match (a subclass may widen it to what belongs with it)."""
        return start, end


def before(text: str, start: int, width: int = 30) -> str:
    """The lower-cased text just before a span."""
    return text[max(0, start - width) : start].lower()


def after(text: str, end: int, width: int = 30) -> str:
    """The lower-cased text just after a span."""
    return text[end : end + width].lower()
