"""Companies named without a head word: the employers, stores, pharmacies, labs and insurers of a
note ("drives for FedEx", "shift at Costco", "labs at Quest", "CVS on Blue Hill Ave"), from the
company list of deid/data/organisations.txt (the members of the major stock indices).

A name that is also a common word, a census name or an acronym ("Target", "Apple", "CVS") is taken
only with a place cue before it ("works at Target") or a store's words after it ("CVS on Main
St", "Walmart pharmacy"); any other name wherever it is written as listed, in capitals, or in a
lower-case note in lower case ("dialysis at davita").
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.recognizers.base import LexiconRecognizer
from deid.text import Case, case_at, tokenize
from deid.types import LOCATION

WORD = re.compile(r"[A-Za-z0-9][\w'’&.+-]*")
LONGEST_NAME = 5  # words
CUE_BEFORE = re.compile(
    r"\b(?:at|for|from|with|to|via|by|works?|worked|working|employed|employer|employee|retired|job|shift|"
    r"store|pharmacy|insurance|insurer|plan|carrier|through)\s*:?\s+(?:the\s+)?$",
    re.IGNORECASE,
)
CUE_AFTER = re.compile(
    r"\s*(?:\(|pharmacy|store|warehouse|distribution|fulfillment|plant|location|corporate|employee|hub|"
    r"hr\b|psc\b|courier|(?-i:(?:on|in)\s+[A-Z])|\#\s?\d|"
    # a lab's order or specimen after it: "Quest accession WX449812G", "Quest req QD-77014362"
    r"accession|requisition|req\b|draw\b|"
    # a street after it, in a lower-case note too: "cvs on london rd", "walgreens on colfax ave"
    r"on\s+[a-z0-9]+(?:\s+[a-z]+)?\s+(?:rd|st|ave|blvd|dr|hwy|pkwy|road|street|avenue)\b)",
    re.IGNORECASE,
)


class OrganisationRecognizer(LexiconRecognizer):
    ENTITIES = (LOCATION,)

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__(lexicon)
        self._upper = {name.upper(): name for name in lexicon.organisations}
        self._lower = {
            name.lower(): name for name in lexicon.organisations if not lexicon.organisations[name]
        }
        # in a lower-case note, a name that needs a cue is the company only with a store's words or a
        # street after it: "the target distribution center", "cvs on london rd"
        self._lower_cued = {
            name.lower(): name for name in lexicon.organisations if lexicon.organisations[name]
        }
        # a capitalised name written with other capitals than listed: "LabCorp" for "Labcorp"
        self._folded = {name.lower(): name for name in lexicon.organisations if name[:1].isupper()}

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        end_of_last = 0
        starts = self.lexicon.organisation_starts
        for tok in tokenize(text):  # the words of the text, read once per request anyway
            if tok.start < end_of_last or tok.lower not in starts:
                continue
            found = self._longest(text, tok.start)
            if found is not None:
                results.append(RecognizerResult(LOCATION, tok.start, found, 0.6))
                end_of_last = found
        return results

    def _longest(self, text: str, start: int) -> int | None:
        """The end of the longest listed name written at `start` that the text takes as one."""
        words = []
        pos = start
        for _ in range(LONGEST_NAME):
            word = WORD.match(text, pos)
            if word is None:
                break
            words.append(word)
            if not text.startswith(" ", word.end()):
                break
            pos = word.end() + 1
        case = case_at(text, start)
        for n in range(len(words), 0, -1):
            end = words[n - 1].end()
            phrase = text[start:end].rstrip(".")
            end = start + len(phrase)
            needs_cue = self._needs_cue(phrase, case)
            if needs_cue is None:
                continue
            after = CUE_AFTER.match(text, end)
            if needs_cue and not (CUE_BEFORE.search(text, max(0, start - 30), start) or after):
                continue
            if needs_cue and case is Case.LOWER and not self._lower_cue_after(phrase, after):
                continue  # "with progressive dyspnea", "to block": in lower case only a store's words after
            return end
        return None

    def _lower_cue_after(self, phrase: str, after: re.Match[str] | None) -> bool:
        """In a lower-case note, the cue after a name that is also a word: a store's word ("target
        distribution center"); a bracket or a street only after a rare one ("cvs on london rd", not
        "at home (...)" or "around the block on fernwood ave")."""
        if after is None:
            return False
        if not re.match(r"\(|on\s", after.group().strip()):
            return True
        return self.lexicon.zipf(phrase.split()[-1]) < 4.5

    def _needs_cue(self, phrase: str, case: Case) -> bool | None:
        """Whether a phrase written so needs a cue to be the listed company; None if it is none."""
        names = self.lexicon.organisations
        if phrase in names:
            return names[phrase]
        if case is Case.UPPER and phrase.isupper() and phrase in self._upper:
            return names[self._upper[phrase]]
        if case is Case.LOWER and phrase.islower() and phrase in self._lower:
            return False
        if case is Case.LOWER and phrase.islower() and phrase in self._lower_cued:
            return True
        if (
            case is Case.MIXED
            and phrase[:1].isupper()
            and not phrase.isupper()
            and phrase.lower() in self._folded
        ):
            return names[self._folded[phrase.lower()]]
        return None
