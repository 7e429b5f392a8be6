"""Names recognised by their shape rather than a cue word: a census first name before a surname,
a rare surname, a nickname in quotes beside a name, and staff initials signing a line ("- rk")."""

from __future__ import annotations

import re
from collections.abc import Sequence

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.prefilter import Scanner
from deid.recognizers.base import RegexRecognizer
from deid.recognizers.care_places import UNITS
from deid.recognizers.name_words import (
    CONTINUE_SURNAME_RANK,
    ENGLISH_ENDINGS,
    FAMILY,
    NOT_NAMES,
    SURNAME_STOP_WORDS,
    capitalised_given_name,
)
from deid.recognizers.names import NameWordsRecognizer, adjacent
from deid.recognizers.ner import EPONYM_HEAD
from deid.text import Case, Token, is_sentence_start, tokenize
from deid.types import NAME

# Latin endings of species names (faecalis, aureus, cloacae, albicans, marcescens, aeruginosa,
# difficile): an abbreviated genus before one is an organism, not an initial.
SPECIES_ENDING = re.compile(r"(?:is|us|ae|ii|um|ans|ens|osa|ile)$")


# A verb whose subject is a person, after a given name that opens a sentence.
SUBJECT_VERB = re.compile(
    r"\s+(?:is|was|has|had|lives|lived|reports|reported|states|stated|says|said|denies|denied|"
    r"presents|presented|complains|feels|felt|notes|noted|arrived|asked|wants|wanted|spent|works|"
    r"worked|began|shouted|called|would|will|can|cannot|does|did|went|came)\b"
)


# Before a "SURNAME, GIVEN" that a line lists: a patient's label, a room or bed, a list number, a
# field's letter, a table's bar or a long dash ("PT ", "RM 511 ", "LDR 5 ", "3) ", "S: ", "| ", "-- ").
LISTED_BEFORE = re.compile(
    r"(?:\b(?:pt|patient|resident|client|member|child|infant|re|name|offender|detainee|inmate|veteran|vet|"
    r"candidate)\b\.?:?|\b(?:rm|room|bed|ldr|apt)\s*#?\d+[a-z]?"
    r"|^\s*\d{1,2}[).]|\b[sb]:|\||--|[–—]"
    # a schedule's time before the patient it lists: "0840  Lekanoff, Agafon"
    r"|\b(?:[01]\d|2[0-3])[0-5]\d(?=\s{2})|\b\d{1,2}:[0-5]\d(?:\s?[ap]m)?(?=\s{2}))\s*$",
    re.IGNORECASE | re.MULTILINE,
)
# After it: a room, a birth date, a record number, an age, an obstetric history.
LISTED_AFTER = re.compile(
    r"[ ]{0,6}(?:\b(?:rm|room|bed|dob|id|mrn|mr\#|apt|age|a\#|booking|offender|inmate|chart|acct|hrn)(?:\b|(?<=\#))|"
    # an age, or an age and a kin word, set off by commas as a list of contacts writes them: ", 58, uncle"
    r"\d{1,3}\s*(?:yo|y/o|yom|yof|[mf])\b|g\d+p\d|,[ ]\d{1,3}(?:[ ]?(?:mo|yo|y|wk|d))?[ ]?[,–—-]"
    # a schedule's next field, after a gap of spaces: "Lekanoff, Agafon       Lac recheck"; a table's
    # next cell: "ALVARADO, J | 552017"
    r"|(?<=[^ ])[ ]{3,}(?=\S)|[ ]?\|)",
    re.IGNORECASE,
)
# Endings of English and clinical words that no name has: "afebrile", "nontender", "bilateral".
CLINICAL_SHAPE = re.compile(rf"(?:{ENGLISH_ENDINGS.pattern}|ile|al|ic|ar|ent|ant|er)$")
PATIENT_LABEL = re.compile(
    r"^(?:pt|patient|name|re|child|client|resident|offender|detainee|inmate|veteran|vet|candidate)\b|^\s*\d{1,2}[).]"
    r"|^(?:[01]\d|2[0-3])[0-5]\d|^\d{1,2}:[0-5]\d",
    re.IGNORECASE,
)
# What ends a table's cell or a form's field after a listed surname's initial: "ALVARADO, J | 55".
INITIAL_ENDS_FIELD = re.compile(r"[ ]*(?:\||$|[ ]{2}|\t|[ ](?:MRN|DOB|RM|POD\d|MD|NP|PA)\b)", re.MULTILINE)
# The particles of a surname written before its last word: "DE LA CRUZ, EMILIO", "van der berg".
SURNAME_PARTICLES = frozenset("de la del van der von da di le du st".split())
# A middle initial after a given name: "Brown, Hunter J", "Lindquist, Maren E."
INITIAL_AFTER = re.compile(r"[ ][A-Z]\b\.?(?![\w'’-])")
# What follows a name that is a disease's or a test's: "Rocky Mountain spotted fever".
AFTER_EPONYM = re.compile(rf"{EPONYM_HEAD.pattern}|[ ](?:spotted|fever|virus|strain)\b", re.IGNORECASE)


def _caps_neighbour(text: str, tokens: Sequence[Token], i: int) -> bool:
    """A word in capitals beside token i on its line: a name written in capitals ("AVA LOPEZ")."""
    for j in (i - 1, i + 1):
        if 0 <= j < len(tokens) and tokens[j].text.isupper() and len(tokens[j].text) > 1:
            a, b = sorted((i, j))
            if re.fullmatch(r",? ", text[tokens[a].end : tokens[b].start]):
                return True
    return False


class DictionaryNameRecognizer(NameWordsRecognizer):
    """Census names without context: a first name followed by a surname, or a rare surname alone."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        tokens = tokenize(text)
        results: list[RecognizerResult] = []
        lex = self.lexicon
        for i, tok in enumerate(tokens):
            if tok.case is Case.MIXED and not tok.text[0].isupper():
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if nxt is not None and self._initial_and_surname(text, tok, nxt):
                results.append(RecognizerResult(NAME, tok.start, nxt.start + len(nxt.bare), 0.6))
                continue
            bare = tok.bare
            if nxt is not None and self._surname_comma_given(text, tokens, i):
                initial = INITIAL_AFTER.match(text, nxt.start + len(nxt.bare))  # "Brown, Hunter J"
                end = initial.end() if initial else nxt.start + len(nxt.bare)
                results.append(RecognizerResult(NAME, self._listed_name_start(text, tokens, i), end, 0.6))
                continue
            if nxt is not None and self._listed_surname_comma_given(text, tokens, i):
                start = self._listed_name_start(text, tokens, i)
                results.append(RecognizerResult(NAME, start, self._middle_name_end(text, tokens, i + 1), 0.6))
                continue
            if nxt is not None and self._titled_full_name(text, tok, nxt):
                results.append(RecognizerResult(NAME, tok.start, nxt.start + len(nxt.bare), 0.6))
                continue
            likely = lex.name_likelihood(bare)
            if likely == 0 or bare.lower() in NOT_NAMES:
                continue
            if (
                tok.case is Case.MIXED
                and bare.isupper()
                and len(bare) <= 4
                and not _caps_neighbour(text, tokens, i)
            ):
                continue  # in mixed case, capitals alone are an abbreviation: "AVA 0.6", "TIMI 3"
            if text[tok.end : tok.end + 1].isdigit() or text[tok.start - 1 : tok.start].isdigit():
                continue  # a word glued to digits is a code or a score: "CHA2DS2-VASc"
            if (
                nxt is not None
                and lex.is_first_name(bare)
                and adjacent(text, tok, nxt)
                and self.words.continues(nxt)
            ):
                results.append(RecognizerResult(NAME, tok.start, nxt.start + len(nxt.bare), 0.7))
                continue
            if self._given_name_as_subject(text, tok, likely):
                results.append(RecognizerResult(NAME, tok.start, tok.start + len(bare), 0.6))
                continue
            rare = lex.zipf(bare) < (4.0 if tok.case is Case.MIXED else 3.3)
            # No English word is shaped like "o'connor" or "d'angelo" (a census surname, apostrophe inside).
            irish = re.fullmatch(r"[^\W\d_]{1,2}['’][^\W\d_]{3,}", bare) is not None
            if irish or (rare and not (tok.case is Case.MIXED and is_sentence_start(text, tok.start))):
                start = self._given_name_start(text, tokens, i)
                end = self._surname_end(text, tokens, i)
                score = 0.6 if irish else 0.45 * likely
                results.append(RecognizerResult(NAME, start, end, score))
        return results

    def _surname_end(self, text: str, tokens: Sequence[Token], i: int) -> int:
        """Where a name starting at rare name word i ends: a rare word right after it that no list
        holds is its surname ("Bisi Adeyemi's", "Chidi Okwuosa")."""
        tok = tokens[i]
        end = tok.start + len(tok.bare)
        if i + 1 >= len(tokens) or not adjacent(text, tok, tokens[i + 1]) or text[tok.end] in ".,":
            return end
        nxt = tokens[i + 1]
        low = nxt.bare.lower()
        if (
            (nxt.case is Case.MIXED and not nxt.text[0].isupper())
            or self.words.excluded(nxt)
            or self.lexicon.zipf(low) >= 2.5
            or self.lexicon.is_clinical(low)
            or low in self.lexicon.eponyms
            or ENGLISH_ENDINGS.search(low)
        ):
            return end
        return nxt.start + len(nxt.bare)

    def _surname_comma_given(self, text: str, tokens: Sequence[Token], i: int) -> bool:
        """A census surname, a comma and a census given name, written alike in capitals or with
        capitals, as a record lists a person: "Brown, Hunter J had a reaction", "GRANT, MARCUS bed
        22B"; not a list of words ("Rose, Grace, Hope")."""
        tok, nxt = tokens[i], tokens[i + 1]
        lex = self.lexicon
        if text[tok.end : nxt.start] != ", " or not tok.text[0].isupper() or not nxt.text[0].isupper():
            return False
        if tok.text.isupper() != nxt.text.isupper() or (tok.case is Case.UPPER):
            return False  # in a line of capitals every word is written so
        if i + 2 < len(tokens) and text[nxt.end : tokens[i + 2].start] == ", ":
            return False
        return (
            lex.surname_rank_of(tok.bare) is not None
            and lex.is_first_name(nxt.bare)
            and not self.words.excluded(tok, surname_ok=True)
            and not self.words.excluded(nxt)
            and not (lex.is_clinical(tok.bare) and lex.is_clinical(nxt.bare))
            and nxt.lower not in UNITS  # "Department of Medicine, Ward E2"
        )

    def _listed_surname_comma_given(self, text: str, tokens: Sequence[Token], i: int) -> bool:
        """ "SURNAME, GIVEN" in a line of capitals or of lower case, where every word is written
        alike, when a census or a rare word makes each part and the line lists a person there: a
        patient's label, a room or a list number before it ("PT OKEKE, CHIAMAKA", "3) TUPOU, SIONE",
        "LDR 5 GARDNER, ROSE"), or a room, a birth date or a dash after it ("KING, HUNTER RM 3107")."""
        tok, nxt = tokens[i], tokens[i + 1]
        if text[tok.end : nxt.start] != ", ":
            return False
        # capitalised, not both in capitals, in a line of mixed case: "Park, Jae-won", "SKEENS, Roy"
        titled = (
            tok.case is Case.MIXED
            and all(t.text[0].isupper() for t in (tok, nxt))
            and not (tok.text.isupper() and nxt.text.isupper())
        )
        if tok.case is Case.LOWER:
            if not (tok.text.islower() and nxt.text.islower()):
                return False  # "-- LATE, given 1450": a word in capitals is stressed, not listed
        elif not (tok.text.isupper() and nxt.text.isupper()) and not titled:
            return False  # capitals, also in a line of mixed case: "Rm 603 JOHNSON, TIARA"
        # a given name's initial alone only where a table's cell or a field ends after it: "ALVARADO,
        # J | 552017 |", "rm 812 HERNANDEZ, Y POD2"
        initial = len(nxt.text) == 1
        if initial and not (nxt.text.isupper() and INITIAL_ENDS_FIELD.match(text, nxt.end)):
            return False
        if i + 2 < len(tokens) and re.fullmatch(r",\s*", text[nxt.end : tokens[i + 2].start]):
            return False  # a list of words: "FALLS, PAIN, SKIN" (not "Pungowiyi, Ella, 34, sister")
        line_start = text.rfind("\n", 0, tok.start) + 1
        start = self._listed_name_start(text, tokens, i)
        before = LISTED_BEFORE.search(text, max(line_start, start - 16), start)
        after = LISTED_AFTER.match(text, nxt.start + len(nxt.bare)) or LISTED_AFTER.match(
            text, self._middle_name_end(text, tokens, i + 1)
        )
        if titled:
            # capitalised as any word of a title or a list may be: only between a patient's label
            # and a record field ("Pt Park, Jae-won  MRN", "Name Ruiz Tzul, Bartolomé  MR#")
            before = before if before and PATIENT_LABEL.search(before.group()) else None
            if not (before and after):
                return False
        if not (before or after) or not (
            self._listed_name_word(tok, surname=True)
            and (initial or self._listed_name_word(nxt, surname=False))
        ):
            return False
        if (tok.lower in NOT_NAMES or nxt.lower in NOT_NAMES) and not after:
            return False  # a stop word as a name ("MAY", "WILL") only before a room, a birth date, a record
        # two words no census holds ("TUPOU, SIONE") are a name only when the line says so twice
        known = self.lexicon.surname_rank_of(tok.bare) is not None or self.lexicon.is_first_name(nxt.bare)
        return known or bool(before and after)

    def _middle_name_end(self, text: str, tokens: Sequence[Token], j: int) -> int:
        """The end of a listed given name at token j and of the middle name or initial after it, written
        in the same case: "HUNTER, MAY ELIZABETH", "MAY, WILLIAM J"."""
        given = tokens[j]
        end = given.start + len(given.bare)
        if j + 1 < len(tokens):
            middle = tokens[j + 1]
            same_case = middle.text.isupper() == given.text.isupper()
            if (
                text[given.end : middle.start] == " "
                and same_case
                and middle.bare.isalpha()
                and (
                    len(middle.bare) == 1
                    or (self.lexicon.is_first_name(middle.bare) and not self.words.excluded(middle))
                )
            ):
                end = middle.start + len(middle.bare)
                if text[end : end + 1] == "." and len(middle.bare) == 1:
                    end += 1
        return end

    def _listed_name_start(self, text: str, tokens: Sequence[Token], i: int) -> int:
        """Where a listed "SURNAME, GIVEN" at token i starts: before the particles of its surname."""
        start = tokens[i].start
        while i > 0 and tokens[i - 1].lower in SURNAME_PARTICLES and text[tokens[i - 1].end : start] == " ":
            i -= 1
            start = tokens[i].start
        return start

    def _listed_name_word(self, tok: Token, *, surname: bool) -> bool:
        """A word that can be one part of a listed name: a census name not plainly clinical, or a
        rare word that no clinical list holds ("TUPOU", "SIONE"). A frequent census surname or a
        given name may be a stop word too, in its place: "PT: MAY, WILLIAM J", "HUNTER, MAY"."""
        low = tok.bare.lower()
        lex = self.lexicon
        rank = lex.surname_rank_of(low)
        in_place = (rank is not None and rank <= CONTINUE_SURNAME_RANK) if surname else lex.is_first_name(low)
        if (
            (self.words.excluded(tok, surname_ok=True) and not (low in NOT_NAMES and in_place))
            or low in UNITS
            or not re.sub(r"[-'’]", "", tok.bare).isalpha()
        ):
            return False
        return all(self._listed_name_part(part) for part in low.split("-"))  # "ABERNATHY-COLE"

    def _listed_name_part(self, low: str) -> bool:
        lex = self.lexicon
        if lex.is_census_name(low):  # "COLE" is a clinical abbreviation too, and a frequent surname
            rank = lex.surname_rank_of(low)
            return not lex.is_clinical_term(low) or (rank is not None and rank <= CONTINUE_SURNAME_RANK)
        # a rare word shaped like English is a finding, not a name: "afebrile", "nonverbal"
        return (
            bool(low) and lex.zipf(low) < 3.0 and not lex.is_clinical(low) and not CLINICAL_SHAPE.search(low)
        )

    def _titled_full_name(self, text: str, tok: Token, nxt: Token) -> bool:
        """A given name and a surname capitalised mid-sentence, though both are also words: "a dc
        summary for Mark Young", "summarize Bill Hunter's echos" (a writer of lower case who
        capitalises them says so all the more)."""
        return (
            tok.case is not Case.UPPER
            and tok.text[0].isupper()
            and tok.text[1:].islower()
            and nxt.text[0].isupper()
            and nxt.text[1:].islower()
            and adjacent(text, tok, nxt)
            and not is_sentence_start(text, tok.start)
            and tok.lower not in NOT_NAMES
            and self.lexicon.is_first_name(tok.bare)
            and not self.words.excluded(tok)
            and self.lexicon.surname_rank_of(nxt.bare) is not None
            and not self.words.excluded(nxt, surname_ok=True)
            and not AFTER_EPONYM.match(text, nxt.end)  # "Rocky Mountain spotted fever"
        )

    def _given_name_as_subject(self, text: str, tok: Token, likely: float) -> bool:
        """A census given name that opens a sentence as the subject of a verb about a person:
        "Maria reports ...", "Scott is a very sympathetic person", "Jacob lives on ..."."""
        return (
            likely > 0
            and tok.case is Case.MIXED
            and tok.text[1:].islower()
            and self.lexicon.is_first_name(tok.bare)
            and is_sentence_start(text, tok.start)
            and SUBJECT_VERB.match(text, tok.end) is not None
        )

    def _given_name_start(self, text: str, tokens: Sequence[Token], i: int) -> int:
        """Where a name ending in surname i starts: a rare word right before it is its given name
        ("maeve o'connor", "Babatunde Oyelaran")."""
        tok = tokens[i]
        if i == 0 or not adjacent(text, tokens[i - 1], tok) or text[tokens[i - 1].end] == ".":
            return tok.start
        prev = tokens[i - 1]
        low = prev.bare.lower()
        if capitalised_given_name(prev, self.lexicon) and not is_sentence_start(text, prev.start):
            return prev.start  # a given name that is also a word, capitalised mid-sentence: "Long Nguyen"
        if (
            (prev.case is Case.MIXED and not prev.text[0].isupper())
            or self.words.excluded(prev)
            or self.lexicon.zipf(low) >= 3.0
            or self.lexicon.is_clinical(low)
            or ENGLISH_ENDINGS.search(low)
        ):
            return tok.start
        return prev.start

    def _initial_and_surname(self, text: str, tok: Token, nxt: Token) -> bool:
        """ "l. nguyen", "J. Obi": an initial with its full stop, then a census surname."""
        if len(tok.text) != 1 or text[tok.end : nxt.start] not in (". ", "."):
            return False
        if nxt.case is Case.MIXED and not nxt.text[0].isupper():
            return False
        rank = self.lexicon.surname_rank_of(nxt.bare)
        if self.words.excluded(nxt) or self.lexicon.zipf(nxt.bare) >= 4.5:
            return False
        if rank is not None:
            return True
        # A capitalised word no dictionary knows, after a capital initial: "R. Oduya"; not a species
        # of bacterium or fungus ("E. Faecalis", "C. Albicans")
        low = nxt.bare.lower()
        return (
            tok.text.isupper()
            and nxt.text[0].isupper()
            and not nxt.text.isupper()
            and self.lexicon.zipf(low) < 3.0
            and not self.lexicon.is_clinical(low)
            and not SPECIES_ENDING.search(low)
        )


class NicknameRecognizer(NameWordsRecognizer):
    """A quoted nickname beside a name: Thomas "Tommy" Brennan, Okafor ("Adaeze"); all parts are names."""

    PATTERN = re.compile(
        r"(?P<first>\b[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*)?\s*\(?[\"“](?P<nick>[A-Z][^\W\d_]+(?:[-'’][^\W\d_]+)?)[\"”]\)?"
        r"(?:\s+(?P<last>[A-Z][^\W\d_]*(?:['’-][^\W\d_]+)*))?"
    )

    # "pt goes by "Yas"", "aka Bobby", "prefers to be called Jim"
    GOES_BY = Scanner(
        re.compile(
            r"\b(?:goes\s+by|known\s+as|aka|a\.k\.a\.?|prefers|called|nickname)\s*:?\s+(?:to\s+be\s+called\s+)?"
            r"[\"“']?(?P<nick>[A-Z][^\W\d_]+)[\"”']?",
            re.IGNORECASE,
        )
    )

    # a name in quotes after a newborn or a person of the note: 'Baby girl "Winona"', 'BABY BOY
    # "ELIJAH"', 'baby "mercy"', 'sponsor "Big Mike"', 'pref. "Lily"'
    QUOTED_AFTER_PERSON = re.compile(
        r"\b(?:baby(?:\s+(?:girl|boy|[ab]))?|infant|newborn|twin\s+[ab]|sponsor|pref\.?|preferred(?:\s+name)?)"
        r"\s*:?\s*\(?[\"“](?P<nick>[^\W\d_]+(?:[\s'’-][^\W\d_]+)?)[\"”]",
        re.IGNORECASE,
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        # both quoted patterns need an opening quote: most texts have none, and are not read for them
        quoted_texts = '"' in text or "“" in text
        for match in self.QUOTED_AFTER_PERSON.finditer(text) if quoted_texts else ():
            words = match.group("nick").split()
            # in lower case only a given name: 'baby "mercy"', not 'baby "fussy"'
            if all(self._namelike(w) and (w[0].isupper() or self.lexicon.is_first_name(w)) for w in words):
                results.append(RecognizerResult(NAME, match.start("nick"), match.end("nick"), 0.75))
        for match in self.GOES_BY.finditer(text):
            nick = match.group("nick")
            quoted = text[match.start("nick") - 1 : match.start("nick")] in "\"“'"
            if (quoted or nick[0].isupper()) and self._namelike(nick) and len(nick) >= 2:
                results.append(RecognizerResult(NAME, match.start("nick"), match.end("nick"), 0.75))
        for match in self.PATTERN.finditer(text) if quoted_texts else ():
            parts = [
                g for g in ("first", "nick", "last") if match.group(g) and self._namelike(match.group(g))
            ]
            if "nick" not in parts or len(parts) < 2:
                continue  # a quoted word alone is a quotation ("Help"), not a nickname
            # one span, quotes and brackets between the parts too: a name is redacted whole
            start, end = match.start(parts[0]), match.end(parts[-1])
            if parts[-1] == "nick" and text[end : end + 1] in '"”':
                end += 1 + (text[end + 1 : end + 2] == ")")
            results.append(RecognizerResult(NAME, start, end, 0.8))
        return results

    def _namelike(self, word: str) -> bool:
        low = word.lower()
        return not (
            low in NOT_NAMES
            or self.lexicon.is_clinical_term(low)
            or (self.lexicon.zipf(low) >= 4.5 and not self.lexicon.is_census_name(low))
        )


class InitialsSignatureRecognizer(RegexRecognizer):
    """Staff initials that sign a line or a note: "... no labs. - rk", "- JD", "-- j.m.", or stand
    alone after a blank line at its end."""

    ENTITY = NAME
    FLAGS = re.MULTILINE
    PATTERNS = (
        (
            "signature",
            r"(?:^|[\s.;])[-–—~]+\s*(?P<phi>[A-Za-z]{2,3}|(?:[A-Za-z]\.\s?){2,3})[\s.]*$",
            0.6,
        ),
        # the writer's capitals alone on the note's last line: "...RTC 3 mo.\n\nMQR"
        ("closing", r"\n[ \t]*\n[ \t]*(?P<phi>[A-Z]{2,3})[ \t]*\s*\Z", 0.6),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        letters = re.sub(r"[^A-Za-z]", "", text[start:end])
        low = letters.lower()
        if pattern == "closing" and (
            letters.upper() in self.lexicon.state_abbrevs or self.lexicon.is_clinical(low)
        ):
            return False  # "...\n\nNKDA", "\n\nCHF": a last word of clinical shorthand
        if text[start:end].isupper() is False and text[start:end].islower() is False:
            return False  # "Ok", "Pt": initials are written all in one case
        return not (
            low in NOT_NAMES
            or self.lexicon.is_clinical_term(low)
            or self.lexicon.zipf(low) >= 3.5
            or low in ("rn", "md", "np", "pa", "do")
        )


class MiddleInitialNameRecognizer(RegexRecognizer):
    """A given name, a middle initial and a surname: "Janka M. Szász", "Ryan P Costa". The shape is
    a name's in any language; clinical phrases of the same shape ("Hepatitis B Surface", "Factor V
    Leiden", "Group A Strep") have a medical or common word first."""

    ENTITY = NAME
    FLAGS = 0
    PATTERNS = (
        (
            "middle_initial",
            r"\b[A-ZÀ-Þ][^\W\d_A-Z]+(?:-[A-ZÀ-Þ][^\W\d_]+)?\s[A-Z]\.?\s[A-ZÀ-Þ][^\W\d_]+(?:['’-][^\W\d_]+)*\b",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = text[start:end].split()
        first, last = words[0], words[-1]
        if not self._namelike(last) or self.lexicon.is_clinical(last):
            return False
        # A given name that is also an eponym ("Gilbert", "Addison") is a given name before an
        # initial and a surname: "Gilbert P. Perez".
        return self._namelike(first) or (
            self.lexicon.is_first_name(first.lower()) and self.lexicon.is_census_name(last.lower())
        )

    def _namelike(self, word: str) -> bool:
        low = word.lower().rstrip("'’s")
        lex = self.lexicon
        if low in NOT_NAMES or lex.is_clinical(low) or lex.is_place_word(low):
            return False
        return lex.zipf(low) < 4.5 or lex.is_census_name(low)


class NameBeforeAgeRecognizer(RegexRecognizer):
    """A capitalised name set off by a comma before an age and sex, as a question or a list
    introduces its patient: "d/c instructions for Harold Two Bears, 71M", "Bich Ngoc Tran, 45F",
    "Pt Ifeoma from Enugu, 31F". Each word is a name's, none a clinical or a common word (a town or
    an employer so placed is redacted too: it is PHI all the same)."""

    ENTITY = NAME
    FLAGS = 0
    PATTERNS = (
        (
            "name_before_age",
            r"(?<![\w'’-])(?:[A-Z][a-z'’-]+[ ]){0,3}[A-Z][a-z'’-]+"
            r"(?=,[ ]\d{1,3}[ ]?(?:[MF]\b|yo\b|y/o|y\.o\.|-year|yrs?\b|years?[ ]old))",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = text[start:end].split()
        lex = self.lexicon
        return any(
            lex.name_likelihood(w.lower()) > 0 or lex.is_first_name(w.lower()) for w in words
        ) and not any(
            (w.lower() in NOT_NAMES and w.lower() not in SURNAME_STOP_WORDS)
            or lex.is_clinical_term(w.lower())
            or ENGLISH_ENDINGS.search(w.lower())
            for w in words
        )


class SystemNameRecognizer(NameWordsRecognizer):
    """A name as record systems print it, in capitals with no space after the comma, a given name,
    and a middle name or initial: "HAMMERSMARK,KAYLA J", "KHALIL,SAMIR GEORGE", "CRUZ,JUAN
    TAITANO" (the VA's CPRS, many exports). Each part is a census name or a rare word that no
    clinical list holds ("BP,HR" and "HEENT,NECK" are no names); one is a census name unless a
    middle name or initial follows."""

    PATTERN = re.compile(
        r"(?<![\w,/])(?P<last>[A-Z][A-Z'’-]+(?:[ ](?:DE|LA|DEL|VAN|VON|DA|DI|ST)[ ][A-Z][A-Z'’-]+)?)"
        r",(?P<first>[A-Z][A-Z'’-]+)(?P<middle>[ ][A-Z](?:[A-Z'’-]+)?)?(?!\w|,[A-Z])"
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for match in self.PATTERN.finditer(text):
            last, first = match.group("last").split()[-1], match.group("first")
            if len(last) < 2 or len(first) < 2 or last in self.lexicon.state_abbrevs:
                continue
            parts = [self._token(last), self._token(first)]
            lex = self.lexicon
            known = lex.surname_rank_of(last.lower()) is not None or lex.is_first_name(first.lower())
            # with a middle name or initial the printed form is evidence enough: "LEFIATA,SAUNIA T"
            if (known or match.group("middle")) and all(self._part(t) for t in parts):
                results.append(RecognizerResult(NAME, match.start(), match.end(), 0.65))
        return results

    @staticmethod
    def _token(word: str) -> Token:
        return Token.of(0, len(word), word, Case.UPPER)

    def _part(self, tok: Token) -> bool:
        low = tok.lower
        lex = self.lexicon
        if self.words.excluded(tok, surname_ok=True) or low in UNITS or lex.is_clinical_term(low):
            return False
        return lex.is_census_name(low) or (lex.zipf(low) < 3.5 and not lex.is_clinical(low))


class KinGivenNameRecognizer(NameWordsRecognizer):
    """A relative's given name that is also a common word, between the kin word and where the person
    is or what they were told: "son will at bedside", "partner sky at bedside, updated", "WIFE MAY
    AT BEDSIDE". A modal or a noun would be followed by a verb or an object, not by these."""

    # (tried only where a kin word starts: deid.prefilter)
    PATTERN = Scanner(
        re.compile(
            rf"\b(?P<kin>{'|'.join(sorted(FAMILY, key=len, reverse=True))})\s+(?P<given>[A-Za-z][a-z]+|[A-Z]+)"
            r"(?=\s+(?:(?:is\s+|was\s+)?(?:at\s+(?:the\s+)?(?:bedside|bs|home)|present|aware|updated|here|notified|"
            r"visiting|in\s+(?:the\s+)?room|on\s+(?:the\s+)?phone|by\s+phone|called|(?:is\s+)?the\s+poa|agrees)\b))",
            re.IGNORECASE,
        )
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results = []
        for match in self.PATTERN.finditer(text):
            given = match.group("given")
            low = given.lower()
            if (
                self.lexicon.is_first_name(low)
                and low not in ("is", "was", "and", "the")
                and not (self.lexicon.is_clinical_term(low))
            ):
                results.append(RecognizerResult(NAME, match.start("given"), match.end("given"), 0.6))
        return results


# A given name as a question's subject may be a word as common as "faith" (4.5), not commoner.
QUESTION_NAME_ZIPF = 5.0


class QuestionSubjectRecognizer(RegexRecognizer):
    """A given name as the subject of a typed question, in lower case: "does faith need ppx for a
    cat bite?", "can marcus have a 2nd dose", "is grace still on vanc". A census given name there
    is the patient asked about; pronouns, roles and drugs are not census given names."""

    ENTITY = NAME
    FLAGS = re.IGNORECASE
    PATTERNS = (
        (
            "question_subject",
            r"\b(?:does|did|can|could|should|is|was|has|will|would)[ ](?P<phi>(?-i:[A-Za-z][a-z]{2,14}))"
            r"(?=[ ](?:need|needs|have|get|qualify|require|still|take|go|be|stay|tolerate)\b)",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        low = text[start:end].lower()
        lex = self.lexicon
        return (
            lex.is_first_name(low)
            and low not in NOT_NAMES
            and not lex.is_clinical_term(low)
            and lex.zipf(low) < QUESTION_NAME_ZIPF
        )
