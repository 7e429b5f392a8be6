"""Names that lists, sign-outs and handoffs describe instead of introducing: the words written just
before an age and sex ("frank lopez 61 m", "Ruiz, Carmen | 72F", "Beatriz Souza, 34 y.o."), before
or after a bed ("- dlamini (bed 4)", "events for Grant in bed 3B", "bed 12: frank lopez"), and
before a role in brackets ("drew (ms3)", "Jim (son)").

The descriptor is the cue; the words themselves must still look like a name (NameWords), so
"pleasant 61 M" or "obese 45 F" stay.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.name_words import ENGLISH_ENDINGS, FAMILY, NAME_PARTICLES, NOT_NAMES, ROLES, STAFF
from deid.recognizers.names import NameWordsRecognizer, adjacent
from deid.text import Case, Token, token_starts, tokenize
from deid.types import LOCATION, NAME

BED = r"(?:bed|rm|room)\s*#?\s*\d{1,4}[a-z]?"
ROLE_WORDS = "|".join(sorted(FAMILY | STAFF, key=len, reverse=True))
# What describes the name written just before it (the gap before it is walked back separately, so
# that the expression starts at a digit, a bracket, "in", a bed or an "mrn" and fails fast
# everywhere else): an age with a sex or a "years old" marker ("61 m", "72F", "34 y.o.", "19yo M"),
# a bed ("(bed 4)", "in bed 3B"), or a role or a student's or trainee's year in brackets ("(ms3)",
# "(night attending)").
DESCRIPTOR = re.compile(
    r"(?=[\d(ibrm])(?:(?P<age>(?<![\d.])\d{1,3}\s?(?:(?:y/?o|yo|y\.o\.|yrs?|-?year-old)\s?(?:m|f|male|female)?|m|f|male|female)(?![\w/]))"
    # a sign-out line's room and age, or a record number, after a surname and given name:
    # "hollis, mark rm 718 66m", "Pham, Lien 814A 78F", "lopez, grace mrn 20448190"
    rf"|(?P<listed>(?:{BED}|[1-9]\d{{2,3}}[a-e]?)[ ]+\d{{1,3}}[ ]?(?:y/?o|yo)?[ ]?[mf](?![\w/])|mrn:?\s*#?\s*\d)"
    rf"|(?P<bed>\(\s*{BED}\s*\)|\bin\s+{BED}\b)"
    rf"|(?P<role>\(\s*(?:[a-z]+\s+)?(?:{ROLE_WORDS}|ms[1-4]|pgy-?\d|[a-z]+\s+student)\s*\)))",
    re.IGNORECASE,
)
# A bed that heads a list item, with the name after it: "bed 12: frank lopez", "bed 4 (thandiwe)".
BED_BEFORE = re.compile(rf"(?=[br])\b{BED}\s*(?:[:–—-]\s*|\(\s*)", re.IGNORECASE)
MAX_WORDS = 3


class DescribedNameRecognizer(NameWordsRecognizer):
    """Names written beside an age and sex, a bed, or a role in brackets."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        anchors = list(DESCRIPTOR.finditer(text))
        befores = list(BED_BEFORE.finditer(text))
        if not anchors and not befores:
            return results
        tokens = tokenize(text)
        starts = token_starts(text)
        for match in anchors:
            end = _gap_start(text, match.start(), match.lastgroup in ("age", "listed"))
            i = bisect.bisect_left(starts, end) - 1
            # a possessive is followed by what the person has, not by a descriptor: bare words only
            if i >= 0 and tokens[i].end == end and tokens[i].bare == tokens[i].text:
                run = self._run_back(text, tokens, i, strict=match.lastgroup == "role")
                if run:
                    results.append(_result(tokens, run))
        for match in befores:
            j = bisect.bisect_left(starts, match.end())
            if j < len(tokens) and tokens[j].start == match.end():
                run = self._run_forward(text, tokens, j)
                if run:
                    results.append(_result(tokens, run))
        return results

    def _namelike(self, text: str, tok: Token, strict: bool) -> bool:
        """The word nearest the descriptor: a name on its own evidence. `strict` (a role in brackets,
        which also follows service names: "nephro (fellow)") wants a dictionary name in lower case."""
        if tok.case is Case.MIXED and not tok.text[0].isupper():
            # a name left in lower case by a writer who capitalises places ("kamalei akana 44f from
            # hilo, flew in to Queens"): a word that looks like a name on its own evidence
            return not strict and self._lower_case_name(tok, listed=text[tok.start - 2 : tok.start] == ", ")
        if strict and not (tok.case is Case.MIXED or self.lexicon.name_likelihood(tok.bare) > 0):
            return self.lexicon.is_first_name(tok.bare) and not self.words.excluded(tok)
        return self.words.after_weak_cue(tok, lenient=True)

    def _lower_case_name(self, tok: Token, listed: bool) -> bool:
        """A lower-case word that is a name on its own evidence: a given name that is not also a
        common word (the census's "Pleasant" is: "a pleasant 65-year-old"), any given name after a
        surname and a comma ("wood, rose 96f"), or a word no dictionary knows."""
        low = tok.bare.lower()
        lex = self.lexicon
        if self.words.excluded(tok) or lex.is_clinical(low) or ENGLISH_ENDINGS.search(low):
            return False
        given = lex.is_first_name(low) and lex.zipf(low) < (5.5 if listed else 4.0)
        return given or lex.zipf(low) < 3.0

    def _run_back(self, text: str, tokens: Sequence[Token], i: int, strict: bool) -> list[int]:
        if not self._namelike(text, tokens[i], strict):
            return []
        run = [i]
        while len(run) < MAX_WORDS and run[0] > 0:
            prev, nxt = tokens[run[0] - 1], tokens[run[0]]
            comma = text[prev.end : nxt.start] == ", " and len(run) == 1  # "Ruiz, Carmen 72F"
            if not (adjacent(text, prev, nxt) or comma) or prev.end != prev.start + len(prev.bare):
                break
            # a surname before a comma may be a word too: "wood, rose 96f"
            surname = comma and self.lexicon.surname_rank_of(prev.bare) is not None
            if not (self.words.continues(prev) or self._namelike(text, prev, strict) or surname):
                break
            run.insert(0, run[0] - 1)
        return run

    def _run_forward(self, text: str, tokens: Sequence[Token], j: int) -> list[int]:
        if not self._namelike(text, tokens[j], strict=False):
            return []
        run = [j]
        while len(run) < MAX_WORDS and run[-1] + 1 < len(tokens):
            prev, nxt = tokens[run[-1]], tokens[run[-1] + 1]
            if not adjacent(text, prev, nxt) or prev.end != prev.start + len(prev.bare):
                break
            if not self.words.continues(nxt):
                break
            run.append(run[-1] + 1)
        return run


def _gap_start(text: str, pos: int, age: bool) -> int:
    """Where the gap before a descriptor at `pos` begins, which is where a name before it ends:
    spaces, and before an age one separator ("Ruiz, Carmen | 72F", "Souza, 34 y.o.", "(88 f)")."""
    start = pos
    while start > 0 and text[start - 1] in " \t":
        start -= 1
    if age and start > 0 and text[start - 1] in ",|/(":
        start -= 1
        while start > 0 and text[start - 1] in " \t":
            start -= 1
    return start


def _result(tokens: Sequence[Token], run: list[int]) -> RecognizerResult:
    first, last = tokens[run[0]], tokens[run[-1]]
    return RecognizerResult(NAME, first.start, last.start + len(last.bare), 0.7)


# A child in a list of children by their ages: "Wahid 15", "Mateo (8)", "Tay, 15", "Navy (8 mo)".
CHILD = (
    r"[A-Z][a-z'’-]+,?[ ](?:\(\d{1,2}(?:[ ]?(?:mo|months?|yo|y|yrs?))?\)"
    r"|\d{1,2}(?:[ ]?(?:mo|yo|y))?(?![\w/:%-]|\.\d))"
)
# Two or more of them in a row: "(Tevita 6, Salote 4, Losa 1)", "Mateo (8) and Gael (5)", and
# across a wrapped line ("Maryam 12, /\n Bilal 9").
CHILDREN = re.compile(rf"{CHILD}(?:(?:,[ ]?(?:and[ ])?|;[ ]|[ ](?:and|&)[ ]|,?[ ]*\n[ ]*){CHILD})+")
CHILD_NAME = re.compile(r"(?P<name>[A-Z][a-z'’-]+),?[ ][(\d]")


class ChildrenListRecognizer(NameWordsRecognizer):
    """Names in a list of people by their ages, as social histories list children and siblings:
    "5 children (Wahid 15, Maryam 12, Bilal 9)", "half-brothers Mateo (8) and Gael (5)". Each word
    must be a name on its own evidence or a word neither common nor clinical, so "Grade 3, Stage 2"
    stays."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for group in CHILDREN.finditer(text):
            names = list(CHILD_NAME.finditer(text, group.start(), group.end()))
            if all(self._named(m["name"]) for m in names):
                results.extend(RecognizerResult(NAME, m.start("name"), m.end("name"), 0.7) for m in names)
        return results

    def _named(self, word: str) -> bool:
        low = word.lower()
        lex = self.lexicon
        if low in NOT_NAMES or low in ROLES or lex.is_clinical(low) or lex.is_clinical_term(low):
            return False
        return lex.is_first_name(low) or lex.name_likelihood(low) > 0 or lex.zipf(low) < 3.5


# A sign-out list's line: the patient, their room and maybe age and sex, then the problem:
# "- mcallister 4112: SBO", "- ng, kevin 4115: GI bleed", "3. o'toole, margaret "peg" 4120 91F: ..."
SIGNOUT_LINE = re.compile(
    r"^[ \t]*(?:[-•*]|\d{1,2}[.)])[ \t]*"
    r"(?P<name>[^\W\d_][\w'’-]+(?:,[ ][^\W\d_][\w'’-]+)?(?:[ ][\"“][^\"”\n]{1,15}[\"”])?)"
    r"[ ](?P<room>[1-9]\d{2,3}[a-eA-E]?)(?:[ ]\d{1,3}[ ]?[mfMF])?[ ]?[:—–][ ]",
    re.MULTILINE,
)

# The same with the room first, as unit lists write it: "502 Ruiz - LLE cellulitis", "507 Begay,
# Thomas - CAP"; taken only where two lines or more of the text have this shape (a list, not a dose).
ROOM_FIRST_LINE = re.compile(
    r"^[ \t]*(?:[-•*][ \t]*)?(?P<room>[1-9]\d{2,3}[a-eA-E]?)[ \t]+"
    r"(?P<name>[^\W\d_][\w'’-]+(?:,?[ ][^\W\d_][\w'’-]+)?)[ \t]*[:—–-][ ]",
    re.MULTILINE,
)

# A census or tracking board's row: the room or bed in the first column, the patient "LAST, FIRST" in
# the next ("612-1 | AL-HASSAN, YOUSEF | 58M", "A3   YOUNG, ROSALIND   44F", "HALL 2 ACHEAMPONG,
# KWAME"); taken, as ROOM_FIRST_LINE is, only where two lines or more of the text have this shape.
ROOM_TABLE_ROW = re.compile(
    r"^[ \t]*(?P<room>[1-9]\d{2,3}(?:-\d{1,2}|[A-Za-z])?|[A-Z]{1,2}\d{1,2}|(?i:hall|hallway)[ ]\d{1,2})"
    r"(?:[ \t]*\|[ \t]*|\t+|[ ]+)"
    r"(?P<name>[^\W\d_][\w'’-]+(?:[ ][^\W\d_][\w'’-]+){0,2},[ ]?[^\W\d_][\w'’-]+(?:[ ][^\W\d_][\w'’-]*)?)"
    r"(?=[ \t]*\||\t|[ ]{2,}|[ \t]*$)",
    re.MULTILINE,
)

DOSE_UNIT = re.compile(r"(?i:mg|mcg|ug|g|kg|ml|l|units?|iu|meq|mmol|cc|min|hrs?|mins?)")


class SignoutLineRecognizer(NameWordsRecognizer):
    """The patient and room that start a sign-out list's line, in any letter case: "- mcallister
    4112: SBO, NGT to LIWS", "502 Ruiz - LLE cellulitis". The name's words must not be clinical or
    ordinary ones ("- bed 4112:", "250 Lasix - held")."""

    ENTITIES: ClassVar[tuple[str, ...]] = (NAME, LOCATION)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for line in SIGNOUT_LINE.finditer(text):
            words = re.findall(r"[^\W\d_][\w'’-]*", re.sub(r"[\"“].*", "", line["name"]))  # not a nickname
            if all(self._name_word(w) for w in words):
                results.append(RecognizerResult(NAME, line.start("name"), line.end("name"), 0.7))
                results.append(RecognizerResult(LOCATION, line.start("room"), line.end("room"), 0.7))
        room_first = list(ROOM_FIRST_LINE.finditer(text))
        rows = list(ROOM_TABLE_ROW.finditer(text))
        if all(_clock_time(row["room"]) for row in rows):
            rows = []  # a clinic's day: "1040  Gundersen, Erik   INR check" is an appointment's time
        for lines in (room_first, rows):
            if len(lines) < 2:
                continue
            for line in lines:
                words = re.findall(r"[^\W\d_][\w'’-]*", line["name"])
                ok = self._row_name(line["name"]) if lines is rows else all(map(self._name_word, words))
                if ok and not any(DOSE_UNIT.fullmatch(w) for w in words):
                    results.append(RecognizerResult(NAME, line.start("name"), line.end("name"), 0.7))
                    results.append(RecognizerResult(LOCATION, line.start("room"), line.end("room"), 0.7))
        return results

    def _row_name(self, name: str) -> bool:
        """A board's "LAST, FIRST": each word a census name (also an English or clinical word there:
        "YOUNG, ROSALIND", "BROWN, KEISHA"), a particle ("DEL CASTILLO-PARK"), an initial or a word
        the name test takes; never a role or a stop word."""
        words = re.findall(r"[^\W\d_][\w'’]*", name)
        return all(
            len(w) == 1  # a middle initial: "BROWN, FAITH A"
            or w.lower() in NAME_PARTICLES  # "DEL CASTILLO-PARK", "VAN DER BERG"
            or (w.lower() not in NOT_NAMES and w.lower() not in ROLES and self.lexicon.is_census_name(w))
            or self._name_word(w)
            for w in words
        )

    def _name_word(self, word: str) -> bool:
        low = word.lower()
        lex = self.lexicon
        return not (
            low in NOT_NAMES
            or low in ROLES
            or ENGLISH_ENDINGS.search(low)
            or lex.is_clinical(low)
            or lex.is_clinical_term(low)
            or (lex.zipf(low) >= 4.5 and not lex.is_census_name(low))
        )


def _clock_time(code: str) -> bool:
    """A schedule's time of day as a room-like number, on a five minutes' step: "0940", "1040"."""
    if not code.isdigit() or len(code) != 4:
        return False
    return int(code[:2]) < 24 and int(code[2:]) < 60 and int(code[2:]) % 5 == 0
