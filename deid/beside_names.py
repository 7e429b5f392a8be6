"""What is written right after a found name: the room the patient is in, as sign-outs and lists
write it ("bill in 302", "jade in 8", "1. hart 302 — cellulitis"); an age of 90 or over in brackets
or between commas ("penny wise (93) bed 11", "vera pedersen (96) asking"); and the further words of
a surname made of common words ("Garrett Two Bulls", "Faith Running Bear", "Kendra Yellow Bird"), or
the nickname and surname after a given name ('William "Bill" Young'), found from the names found."""

from __future__ import annotations

import re
from collections.abc import Sequence

from presidio_analyzer import RecognizerResult

from deid.lexicon import Lexicon
from deid.recognizers.ages import OLD, OLD_WORDS
from deid.recognizers.care_places import SPECIALTY, WHEN
from deid.recognizers.facilities import GENERIC, FacilityRecognizer
from deid.recognizers.letterhead import SECTION_WORDS
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES, ROLES, SURNAME_STOP_WORDS, TITLES
from deid.recognizers.wards import NOT_A_COUNT
from deid.text import Case, case_at
from deid.types import AGE, ID, LOCATION, NAME

# After a name: "in" and a room ("bill in 302", "jade in 8", "king in 4b"), or a three-digit room and
# a dash, a colon or an age and sex, as a sign-out list writes a bed ("hart 302 — cellulitis",
# "Kowalczyk, Bernard 817 94M"). Not a year or a time.
ROOM_AFTER_NAME = re.compile(
    rf"[ ]in[ ](?:rm\.?[ ]|room[ ]|bed[ ])?(?P<in>(?!19\d\d|20\d\d)\d{{1,4}}[a-eA-E]?)\b{NOT_A_COUNT}"
    r"(?![ ]?(?:s|am|pm|weeks?|wks?|months?|mos?|years?|yrs?|[dhwmy])\b|[ ]?[-–]|,\d)"
    r"|[ ](?P<listed>[1-9]\d{2,3}[a-eA-E]?)(?=[ ]?[—–:-][ ]|[ ]\d{1,3}[ ]?[MFmf]\b)"
    # or a bed or room named as such: "gideon marsh bed 22", "Delgado rm 518"
    r"|[ ](?:bed|rm\.?|room)[ ]?(?P<bed>\d{1,4}[a-eA-E]?)\b(?![.,]\d)",
)
# After a name: an age of 90 or over in brackets or set off by commas ("(93)", "(93, has PD)", ", 96,").
# Or said of them: "mrs Szymańska is 93, 51 kg", "Mrs. Eleanor Faircloth is ninety-four and".
AGE_AFTER_NAME = re.compile(
    rf"[ ]?(?:\((?P<bracketed>{OLD})(?=[),;])|,[ ](?P<listed>{OLD})(?=,[ ]|[ ]?[;)]))"
    rf"|[ ]is[ ](?:now[ ])?(?P<said>{OLD}|{OLD_WORDS})(?=[ ]?[,.;]|[ ](?:and|but|with|yo|years?)\b)"
)
# After a name: a staff or interpreter number of four to seven digits in brackets, as an ECG system
# signs its confirmations ("Confirmed by STRONG, HOLLIS (4417) on 9/27/2019"). Not a year: "Smith (2019)".
ID_AFTER_NAME = re.compile(r"[ ]?\((?P<number>(?!(?:19|20)\d\d\))\d{4,7})\)")

# A lower-case word that a room may follow ("bill in 302", "baker 311 —"), found before ROOM_AFTER_NAME
# tries it; it is a patient's name if the census has it and English uses it less than ROOM_NAME_ZIPF
# ("bill", not "man"), and before "bed 3" less than BED_NAME_ZIPF ("hall bed 3" is the hallway's).
ROOM_NAME_CANDIDATE = re.compile(r"(?<![\w'’-])[a-z]{3,}(?=[ ](?:in[ ]|[1-9]\d{2}|(?:bed|rm|room)[ .]?\d))")
ROOM_NAME_SURNAME_RANK = 20_000
ROOM_NAME_ZIPF = 5.2
BED_NAME_ZIPF = 4.5
# A lower-case given name before the surname found so ("gideon marsh bed 22"): census or rare.
GIVEN_BEFORE = re.compile(r"(?<![\w'’-])(?P<given>[a-z]{3,})[ ]\Z")
GIVEN_RARE_ZIPF = 3.5
# A capitalised word right after a name ("Two", "Bulls"), and what a name's last word must look like.
TITLE_WORD = re.compile(r"[ ](?P<word>[A-Z][a-z]{1,15})(?![\w'’-])")
TITLE_CASED = re.compile(r"[A-Z][a-z]+(?:['’-][A-Za-z]+)*")
MAX_SURNAME_WORDS = 2  # three capitalised words after a name are a heading or a title, not its surname
LABEL_AFTER = re.compile(r"[ ]?:")
# A nickname in quotes or brackets between a given name and the surname: 'William "Bill" Young'.
# What a person is called, after their name: "Rich, Augustus (Gus)", 'Bill "Buddy" Cole', and in a
# bracket, quoted or after a word that says so: '("Hana")', '(prefers "Ray")', "(goes by Peggy)".
NICKNAME = re.compile(
    r"[ ](?P<open>\"|“|\()(?:(?P<cue>(?i:prefers|goes[ ]by|aka|called|known[ ]as))[ ])?"
    r"(?P<quote>[\"“])?(?P<nick>[A-Z][A-Za-z.'-]{0,12})(?(quote)[\"”])(?:\"|”|\))"
)
FORM_WORDS = frozenset({"date", "dob", "age", "sex", "mrn", "room", "bed", "unit"})


def names_before_rooms(text: str, lexicon: Lexicon) -> list[RecognizerResult]:
    """NAME results for the lower-case census names that a room follows as a found name's would:
    "bill in 302", "fyi jade in 8 pulled her picc", "3. baker 311 — alcohol w/d". A sign-out names
    its patients so, and no rule cue comes before them. Not a frequent word ("the man in 4 East")."""
    out: list[RecognizerResult] = []
    for word in ROOM_NAME_CANDIDATE.finditer(text):  # one pass over the text, not a match per word
        low = word.group()
        room = ROOM_AFTER_NAME.match(text, word.end())
        if not room or (room["bed"] and lexicon.zipf(low) >= BED_NAME_ZIPF):
            continue
        if low in NOT_NAMES or low in ROLES or low in TITLES or lexicon.is_clinical_term(low):
            continue
        rank = lexicon.surname_rank_of(low)
        census = lexicon.is_first_name(low) or (rank is not None and rank <= ROOM_NAME_SURNAME_RANK)
        if census and lexicon.zipf(low) < ROOM_NAME_ZIPF and not ENGLISH_ENDINGS.search(low):
            start = word.start()
            given = GIVEN_BEFORE.search(text, max(0, start - 20), start)
            if given and _given_name(given["given"], lexicon):
                start = given.start("given")
            out.append(RecognizerResult(NAME, start, word.end(), 0.6))
    return out


def rooms_after_names(text: str, results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """LOCATION results for the room numbers written right after a found name."""
    return _after_names(text, results, ROOM_AFTER_NAME, LOCATION)


def ages_after_names(text: str, results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """AGE results for the ages of 90 and over written right after a found name."""
    return _after_names(text, results, AGE_AFTER_NAME, AGE)


def ids_after_names(text: str, results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """ID results for the staff numbers in brackets right after a found name."""
    return _after_names(text, results, ID_AFTER_NAME, ID)


def _after_names(
    text: str, results: Sequence[RecognizerResult], pattern: re.Pattern[str], entity: str
) -> list[RecognizerResult]:
    out: list[RecognizerResult] = []
    for r in results:
        if r.entity_type == NAME and (found := pattern.match(text, r.end)):
            group = next(name for name, value in found.groupdict().items() if value)
            out.append(RecognizerResult(entity, found.start(group), found.end(group), 0.6))
    return out


def surname_words_after_names(
    text: str, results: Sequence[RecognizerResult], lexicon: Lexicon
) -> list[RecognizerResult]:
    """NAME results for a found name and the one or two capitalised words right after it, when
    they can be words of a surname: "Winona Two Bulls", "Mr. Pretty On Top". Not a heading's words
    ("Smith Discharge Summary"), a department, a place's head word, a month or a drug."""
    out: list[RecognizerResult] = []
    for r in results:
        if r.entity_type != NAME:
            continue
        words: list[re.Match[str]] = []
        nickname = NICKNAME.match(text, r.end)
        if not nickname and TITLE_CASED.fullmatch(text[r.start : r.end].split()[-1]) is None:
            continue  # a surname goes on after a capitalised word; a nickname after an initial too
        said = nickname and (nickname["cue"] or nickname["quote"])  # a bracket that says it is a name
        if (
            nickname
            and nickname["open"] == "("
            and not said
            and not _bracketed_nickname(nickname["nick"], lexicon)
        ):
            nickname = None  # "Gurinder Bains (Trauma)": a service, not what he is called
        pos = nickname.end() if nickname else r.end
        while len(words) <= MAX_SURNAME_WORDS and (word := TITLE_WORD.match(text, pos)):
            words.append(word)
            pos = word.end()
        if words and words[-1]["word"] in ("Jr", "Sr"):
            words.pop()  # "Vernon Two Bulls Jr.": the generation is the name's, no word of its surname
        if len(words) > MAX_SURNAME_WORDS or LABEL_AFTER.match(text, pos):
            continue
        if words and all(_surname_word(w["word"].lower(), lexicon) for w in words):
            out.append(RecognizerResult(NAME, r.start, pos, r.score))
        elif nickname:
            out.append(RecognizerResult(NAME, r.start, nickname.end(), r.score))
    return out


def _surname_word(low: str, lexicon: Lexicon) -> bool:
    if low in SURNAME_STOP_WORDS:
        return True
    return not (
        low in NOT_NAMES
        or low in TITLES
        or low in ROLES
        or low in GENERIC
        or low in SECTION_WORDS
        or low in FORM_WORDS
        or WHEN.fullmatch(low)
        or SPECIALTY.search(low)
        or FacilityRecognizer.HEAD.fullmatch(low)
        or (lexicon.is_clinical_term(low) and not lexicon.is_census_name(low))  # "Young", not "Lasix"
        or lexicon.is_place_word(low)
    )


def _bracketed_nickname(word: str, lexicon: Lexicon) -> bool:
    """A given name in brackets after a name ("Rich, Augustus (Gus)"), not a service or a drug."""
    low = word.lower()
    return lexicon.is_first_name(low) and not SPECIALTY.search(low) and not lexicon.is_clinical_term(low)


def _given_name(low: str, lexicon: Lexicon) -> bool:
    """A lower-case word before a surname that is a census given name or a rare word: "gideon"."""
    if low in NOT_NAMES or low in ROLES or lexicon.is_clinical(low):
        return False
    zipf = lexicon.zipf(low)
    return (lexicon.is_first_name(low) and zipf < ROOM_NAME_ZIPF) or zipf < GIVEN_RARE_ZIPF


# A credential after a name: the signature of a letter or a consult ("IVOR BRENNAN-WALSH, M.D.").
CREDENTIAL_AFTER = re.compile(
    r",?[ ](?:M\.?D\.?|D\.?O\.?|MBBS|Ph\.?D\.?|N\.?P\.?|PA-C|R\.?N\.?|DPM|DDS|PharmD)\b"
)
GIVEN_WORD_BEFORE = re.compile(r"(?<![\w'’.-])(?P<given>[A-Z][A-Za-z'’-]+)[ ]\Z")


def given_names_before_signatures(
    text: str, results: Sequence[RecognizerResult], lexicon: Lexicon
) -> list[RecognizerResult]:
    """NAME results for a found surname and the given name written right before it, in the same
    case, where a credential signs the name: "IVOR BRENNAN-WALSH, M.D.", "Ivor Brennan-Walsh, M.D."
    (the surname found alone, the given name a census given name or a rare word no list holds)."""
    out: list[RecognizerResult] = []
    for r in results:
        if r.entity_type != NAME or " " in text[r.start : r.end] or not CREDENTIAL_AFTER.match(text, r.end):
            continue
        before = GIVEN_WORD_BEFORE.search(text, max(0, r.start - 30), r.start)
        if before is None:
            continue
        given, surname = before["given"], text[r.start : r.end]
        low = given.lower()
        if given.isupper() != surname.isupper() or low in NOT_NAMES or low in TITLES or low in ROLES:
            continue
        if lexicon.is_first_name(low) or (lexicon.zipf(low) < 3.0 and not lexicon.is_clinical_term(low)):
            out.append(RecognizerResult(NAME, before.start("given"), r.end, r.score))
    return out


# After a surname found alone: ", " and the given name (and initial) a record prints after it, in the
# surname's case (or capitalised after capitals), then the end of the name: the line's or a field's end, a bracket, a number, a dash,
# a record label ("prescriber PATEL, R", "Confirmed by CHOWDHURY, NASRIN (4418)", "Pt: Okonkwo,
# Chidinma A   MRN", "rm 3218 - tauiliili, fetu - chf").
NAME_END = r"(?=[ \t]*(?:$|\(|\d|[ ]{2}|\t|[,;]|[ ](?:[-–—]|->)[ ]|[ ](?i:on|mrn|dob|rm|room|bed|age|md|do|rn|np|pa)\b))"
# (the comma as records space it too: "ASHWORTH , KEVIN P", "PRAKASH,NEHA")
COMMA = r"[ ]?,[ ]?"
# The given name (any letters: "José", "McKenzie", "Zoë") and a middle initial; its case is read after.
# (a full stop only after an initial: "PATEL, R.", not the sentence's end in "kids, mamaw, faith.")
GIVEN = (
    rf"{COMMA}(?P<given>[^\W\d_]+(?:['’-][^\W\d_]+)*)(?:(?<![^\W\d_]{{2}})\.)?(?P<initial>[ ][A-ZÀ-ÖØ-Þ]\.?)?"
)
GIVEN_AFTER_SURNAME = re.compile(GIVEN + NAME_END, re.MULTILINE)
# after a surname a label or a title announced, the name may go on into a sentence: "Patient:
# Oyelaran, Babatunde was seen", "Name: Love, Frank J. presented"
GIVEN_AFTER_LABELLED_SURNAME = re.compile(GIVEN + r"(?:\b|(?<=\.))(?![-'’/])")
# A surname found after a label or a title ("Patient Name:", "Dr"): the word after its comma is its
# given name even in a line of capitals, where a rare word is otherwise only another capital word.
LABELLED_SCORE = 0.9


def given_names_after_surnames(
    text: str, results: Sequence[RecognizerResult], lexicon: Lexicon
) -> list[RecognizerResult]:
    """NAME results for a surname found alone and the given name or initial printed after its comma
    in its case (or capitalised after capitals), as records, orders and lists write a person: "prescriber PATEL, R",
    "Confirmed by CHOWDHURY, NASRIN (4418) on 3/22", "Pt: Okonkwo, Chidinma A   MRN", "rm 3218 -
    tauiliili, fetu - chf". The given name is a census given name, an initial or a rare word no
    clinical list holds ("NASRIN", "fetu"), never a clinical word; nor a list's next item. The one
    rule for a surname's given name: the name recognizers leave it to this."""
    out: list[RecognizerResult] = []
    for r in results:
        surname = text[r.start : r.end]
        if r.entity_type != NAME or " " in surname or len(surname) < 2 or not surname[0].isalpha():
            continue
        after = GIVEN_AFTER_SURNAME.match(text, r.end)
        if after is None and r.score >= LABELLED_SCORE and not surname.islower():
            # (not a lower-case list, which goes on: "kids, mamaw, faith"; nor a letter that begins
            # a sentence's word: "Dr Smith, A fib noted")
            after = GIVEN_AFTER_LABELLED_SURNAME.match(text, r.end)
            after = after if after and len(after["given"]) > 1 else None
        if after is None:
            continue
        kind = _written_as(surname, after["given"], after["initial"])
        if kind is not None and _given_after_comma(text, r, after, kind, lexicon):
            out.append(RecognizerResult(NAME, r.start, after.end(), r.score))
    return out


def _written_as(surname: str, given: str, initial: str | None) -> str | None:
    """The case a surname and its given name are written in together ("caps": "PATEL, R", "HOLLOWAY,
    Jasmine R" after capitals too; "titled": "Okonkwo, Chidinma A"; "lower": "tauiliili, fetu"), or
    None where they differ as no name does ("Smith, MRN", "PAIN, stable")."""
    titled = given[0].isupper() and (len(given) == 1 or not given.isupper())
    if surname.isupper():
        return "caps" if given.isupper() else "titled" if titled else None
    if surname.islower():
        return "lower" if given.islower() and initial is None else None
    return "titled" if titled else None


def _given_after_comma(
    text: str, surname: RecognizerResult, after: re.Match[str], kind: str, lexicon: Lexicon
) -> bool:
    """Whether the word after a surname's comma is its given name: an initial, a census given name,
    or (after a label or a title, or outside a line of capitals) a rare word no clinical list holds."""
    low = after["given"].lower()
    if len(low) == 1:
        return True  # an initial: "PATEL, R"
    if low in NOT_NAMES or low in ROLES or low in TITLES or lexicon.is_clinical_term(low):
        return False
    labelled = surname.score >= LABELLED_SCORE
    if lexicon.is_first_name(low):
        # a census given name that is also a clinical word, with its middle initial or after a
        # labelled surname: "Love, Frank J.", "Name: Wilder, Summer"
        initial = after["initial"] is not None
        return not lexicon.is_clinical(low) or initial or (labelled and lexicon.zipf(low) < 5.0)
    if lexicon.is_clinical(low):
        return False
    if labelled and lexicon.is_census_name(low) and lexicon.zipf(low) < 4.0:
        return True  # after a labelled surname, a census name not too common: "Name: AL-HADDAD, YUSUF M"
    # in a line of capitals every word is so: there a rare word is a given name only after a label
    # or a title ("NAME: OSEI-BONSU, KWAME A")
    caps_line = kind == "caps" and case_at(text, surname.start) is Case.UPPER
    # (short rare words only after a label or a title: "Name: Nguyen, Thi", not "PAIN, RLE")
    return lexicon.zipf(low) < 3.0 and (labelled or (len(low) >= 4 and not caps_line))
