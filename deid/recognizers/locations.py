"""Geography smaller than a state (Safe Harbor B): towns and cities, ZIP codes (street addresses
are in addresses.py, postcodes outside the US in postcodes.py, facilities in facilities.py, wards,
rooms and beds in wards.py). States and countries are kept (Safe Harbor allows them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.recognizers.base import LexiconRecognizer, RegexRecognizer
from deid.recognizers.name_words import NOT_NAMES
from deid.text import Case, Token, is_wrap, tokenize
from deid.types import LOCATION

STATE_WORDS = "|".join(
    [
        r"A[LKZR]|C[AOT]|D[EC]|FL|GA|HI|I[DLNA]|K[SY]|LA|M[EDAINSOT]|N[EVHJMYCD]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[TA]|W[AVIY]|PR"
    ]
)


class ZipCodeRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "zip_after_state",
            rf"(?:\b(?:{STATE_WORDS})\b|[A-Z][A-Za-z]+)\.?,?\s+(?P<phi>\d{{5}}(?:-\d{{4}})?)\b",
            0.85,
        ),
        ("zip_label", r"(?i:\bzip(?:\s*code)?)\s*[:#]?\s*(?P<phi>\d{5}(?:-\d{4})?)\b", 0.9),
        # in lower-case notes the state is written in lower case too: "nashua nh 03060"
        ("zip_after_lower_state", r"\b[a-z]{2}\s(?P<phi>\d{5}(?:-\d{4})?)\b(?![.:/]\d)", 0.8),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "zip_after_lower_state":
            state = text[start - 3 : start - 1]
            town = re.findall(r"[a-z]+", text[max(0, start - 30) : start - 3])
            # a state after a town: "nashua nh 03060", not "in 02134" or "or 10001"
            return (
                state.upper() in self.lexicon.state_abbrevs and bool(town) and self.lexicon.is_town(town[-1])
            )
        if pattern == "zip_after_state":
            word = re.findall(r"[A-Za-z]+", text[max(0, start - 25) : start])
            return bool(word) and (
                word[-1].upper() in self.lexicon.state_abbrevs
                or self.lexicon.is_place_word(word[-1])
                or self.lexicon.is_town(word[-1])  # "BRAINTREE 02184"
            )
        return True


class CityStateRecognizer(RegexRecognizer):
    """ "Dorchester, MA", "SPRINGFIELD, OHIO": the city before a state is PHI, the state is not."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "city_state",
            rf"(?P<phi>\b[A-Za-z][A-Za-z.'-]+(?:\s+[A-Za-z][A-Za-z.'-]+){{0,2}}),\s*(?:{STATE_WORDS})\b(?![a-z])",
            0.8,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = text[start:end].split()
        # Keep only the capitalised tail: "lives in Dorchester, MA" -> "Dorchester".
        return bool(words) and not all(
            w.lower() in NOT_NAMES or self.lexicon.is_clinical_term(w) for w in words
        )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            tokens = tokenize(text[res.start : res.end])
            keep = _trailing_name_tokens(tokens, self.lexicon)
            if keep:
                out.append(RecognizerResult(LOCATION, res.start + keep[0].start, res.end, res.score))
        return out


class PlaceContextRecognizer(RegexRecognizer):
    """A town after "lives in", "from", "moved to": the words up to the next punctuation."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "place_cue",
            r"\b(?:lives|living|resides|residing|resident|born|raised|moved|relocated|visiting|travel(?:l?ed)?|"
            r"trip|vacation|home|house|native|originally|hometown|works?|employed)\s+(?:in|at|to|from|of)\s+"
            r"(?:the\s+)?(?P<phi>[A-Za-z][A-Za-z.'-]*(?:\s+[A-Za-z][A-Za-z.'-]*){0,2})",
            0.7,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            tokens = tokenize(text[res.start : res.end])
            keep = _leading_place_tokens(tokens, self.lexicon)
            if keep:
                out.append(
                    RecognizerResult(LOCATION, res.start + keep[0].start, res.start + keep[-1].end, res.score)
                )
        return out


def _title_cased(run: Sequence[Token]) -> bool:
    """Every word capitalised, none in capitals, in a line that uses case."""
    return all(t.case is Case.MIXED and t.text[0].isupper() and t.text[1:].islower() for t in run)


def _abbreviation(word: str) -> bool:
    """Capitals after the first letter of a short word: "OSA", "MoCA", "VAC"."""
    return len(word) <= 4 and any(c.isupper() for c in word[1:])


def _trailing_name_tokens(tokens: Sequence[Token], lexicon: Lexicon) -> list[Token]:
    keep: list[Token] = []
    for tok in reversed(tokens):
        if (
            tok.lower in NOT_NAMES
            or lexicon.is_clinical_term(tok.text)
            or (tok.case is Case.MIXED and not tok.text[0].isupper())
        ):
            break
        keep.insert(0, tok)
    return keep


def _leading_place_tokens(tokens: Sequence[Token], lexicon: Lexicon) -> list[Token]:
    keep: list[Token] = []
    for tok in tokens:
        low = tok.lower
        if low in NOT_NAMES or lexicon.is_clinical_term(tok.text) or (lexicon.zipf(low) >= 4.5 and not keep):
            break
        if tok.case is Case.MIXED and not tok.text[0].isupper():
            break
        keep.append(tok)
    if keep and lexicon.is_place_word(" ".join(t.text for t in keep)):
        return []  # a state or country: not PHI
    return keep


# A town's quarter written before it, capitalised as part of its name.
DIRECTIONS = frozenset("North South East West Upper Lower NORTH SOUTH EAST WEST UPPER LOWER".split())


# A town written in lower case among capitals is taken after a place cue only if no commoner than
# this in English: "in portland", "from jackson"; not "in reading", "from mobile".
LOWER_TOWN_ZIPF = 4.2


class TownRecognizer(LexiconRecognizer):
    """Towns, cities and counties from the gazetteer (places.txt), when the text uses them as places.

    Many place names are also words or names ("Reading", "Lawrence", "Normal"): a common word needs
    a place cue ("lives in", a following state), a rarer one a preposition or comma before it, and
    only a rare word is taken alone ("via Brockton Fire/EMS").
    """

    STRONG_BEFORE = re.compile(
        r"(?:lives?|living|resides|residing|moved|relocated|native|born|raised|hometown|visiting|"
        r"vacation(?:ing)?|travel(?:l?ed)?|trip|outside|near|home)\s+(?:in|to|of|at|from|near)?\s*$"
    )
    PREP_BEFORE = re.compile(r"(?:\b(?:in|at|to|from|near|of|via|outside)|,)\s*$")
    PLACE_AFTER = re.compile(
        r"\s*(?:office|area|fire|ems|police|campus|location|site|neighbou?rhood)\b", re.I
    )
    # "(Gardner)" after a facility is its town; "(Garden IV)", "(Morse 65)" are scores.
    IN_PARENS = re.compile(r"\s*\)")
    STATE_AFTER = re.compile(r",?\s+(?P<state>[A-Za-z]{2})\b\.?")
    # A small number or a grade after the word makes it a score ("Morse 65", "(Garden IV)", "Paris
    # 0-IIa"); a date, a ZIP code or a phone number after a town does not ("Marblehead 7/12").
    SCORE_AFTER = re.compile(r"\s*\(?\s*(?:\d{1,3}(?:\.\d+)?(?![\d/.-])|\d-[IVX]|[IVX]+\b)")
    COMMON_ZIPF = 4.8

    ENTITIES: ClassVar[tuple[str, ...]] = (LOCATION,)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        tokens = tokenize(text)
        results: list[RecognizerResult] = []
        i = 0
        while i < len(tokens):
            if not self.lexicon.starts_place(tokens[i].bare):
                i += 1
                continue
            for n in (3, 2, 1):
                run = tokens[i : i + n]
                if len(run) < n or not all(
                    text[a.end : b.start] == " " for a, b in zip(run, run[1:], strict=False)
                ):
                    continue
                phrase = " ".join(t.bare for t in run)
                if not self.lexicon.is_town(phrase.replace("Centre", "Center").replace("centre", "center")):
                    continue
                start = self._direction_start(text, tokens, i)
                score = self._score(text, run, start)
                if score:
                    results.append(
                        RecognizerResult(LOCATION, start, run[-1].start + len(run[-1].bare), score)
                    )
                    i += n - 1
                    break
            i += 1
        return results

    def _direction_start(self, text: str, tokens: Sequence[Token], i: int) -> int:
        """Where a town written with its quarter starts: "North Chelmsford", "South\nWeymouth"."""
        if i == 0:
            return tokens[i].start
        prev = tokens[i - 1]
        joined = text[prev.end : tokens[i].start] == " " or is_wrap(text, prev.end, tokens[i].start)
        if joined and prev.text in DIRECTIONS:
            return prev.start
        return tokens[i].start

    def _score(self, text: str, run: Sequence[Token], start: int) -> float:
        first = run[0]
        lex = self.lexicon
        phrase = " ".join(t.bare for t in run)
        if lex.is_place_word(phrase):
            return 0.0
        if first.lower in NOT_NAMES and not (len(run) > 1 and _title_cased(run)):
            return 0.0  # a word, unless it begins a town's capitalised name: "Many Farms", "The Dalles"
        if first.case is Case.MIXED and not all(t.text[0].isupper() for t in run):
            # a town left in lower case by a writer who capitalises other words, after a place cue
            # ("flew in from hilo", "driving from jackson"): only a word that is rare in English
            prefix = text[max(0, first.start - 30) : first.start].lower()
            rare = all(lex.zipf(t.bare) < LOWER_TOWN_ZIPF and not lex.is_clinical(t.bare) for t in run)
            cued = self.STRONG_BEFORE.search(prefix) or re.search(r"\b(?:from|in)\s+$", prefix)
            return 0.55 if rare and cued and not lex.is_place_word(phrase) else 0.0
        if start < first.start:
            return 0.6  # the quarter of a gazetteer town: "East Weymouth", "WEST ROXBURY"
        prefix = text[max(0, first.start - 30) : first.start].lower()
        end = run[-1].start + len(run[-1].bare)
        state = self.STATE_AFTER.match(text, end)
        if state and (state["state"].isupper() or first.case is Case.LOWER):
            # in lower case "or", "me", "in" are words before they are Oregon, Maine and Indiana
            if state["state"].upper() in lex.state_abbrevs and state["state"] not in NOT_NAMES:
                return 0.85
        if self.STRONG_BEFORE.search(prefix):
            return 0.8
        if len(run) == 1 and first.case is Case.MIXED and _abbreviation(first.bare):
            return 0.0  # "OSA", "MoCA", "TIMI": in mixed-case text an abbreviation, not a town
        if (len(run) == 1 and lex.is_clinical_term(first.bare)) or self.SCORE_AFTER.match(text, end):
            return 0.0  # a drug or abbreviation; or a score or grade: "Morse 65", "Paris 0-IIa"
        if len(run) > 1 and first.case is Case.MIXED:
            return 0.6  # "Fall River", "Jamaica Plain": capitalised multi-word place names
        if len(run) > 1 and self.PREP_BEFORE.search(prefix) and any(lex.zipf(t.bare) < 3.5 for t in run):
            return 0.6  # the same in lower case after "from", "in": "family from port harcourt"
        zipf = lex.zipf(first.bare)
        if zipf >= self.COMMON_ZIPF:
            return 0.0
        cased = first.case is Case.MIXED or zipf < 4.0
        in_parens = prefix.endswith("(") and self.IN_PARENS.match(text, end)
        if len(run) == 1 and _bare_lower(first) in lex.eponyms:
            # "Foley catheter", "OGT, Foley", "via Foley", "GLEASON 3+4": an eponym, unless a
            # preposition of place, a place's word or a facility's brackets say it is the town
            placed = EPONYM_TOWN_BEFORE.search(prefix) or self.PLACE_AFTER.match(text, end) or in_parens
            return 0.6 if cased and placed else 0.0
        if cased and (self.PREP_BEFORE.search(prefix) or self.PLACE_AFTER.match(text, end) or in_parens):
            return 0.6
        # Alone, only a rare word that is nothing else: not a name, not an eponym ("Framingham score").
        rare = zipf < 3.0 and not lex.is_census_name(first.bare) and not lex.is_clinical(first.bare)
        return 0.5 if rare and (first.case is Case.MIXED or zipf < 2.5) else 0.0


EPONYM_TOWN_BEFORE = re.compile(r"\b(?:in|at|to|from|near|of|outside)\s*$")


def _bare_lower(tok: Token) -> str:
    return tok.bare.lower().removesuffix("'s").removesuffix("’s")
