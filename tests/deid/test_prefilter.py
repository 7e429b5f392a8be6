"""deid.prefilter: a Scanner finds exactly the matches of finditer(), only faster."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from deid import Deidentifier
from deid.prefilter import Scanner, fold
from deid.recognizers.base import RegexRecognizer
from deid.recognizers.facilities import FacilityRecognizer
from deid.recognizers.identifiers import LabelledIdRecognizer
from deid.recognizers.name_shapes import KinGivenNameRecognizer, NicknameRecognizer
from deid.recognizers.names import LABEL_CUE, VERB_CUE

TEXTS = (
    "",
    "Pt seen 3/4 by Dr Healey at St. Elizabeth's Hospital, Brighton. MRN: 00482913.",
    "DOB 03/14/1931; born in 1929. Christmas Eve 2023, jan 22-23, 2025; Sept. 9th",
    "ALL CAPS NOTE: PT GEORGE SEEN AT MERCY MEDICAL CENTER, SUFFOLK COUNTY, APT 4B",
    'email dana.roux@gmail.com or page bleep 4471; goes by "Yas"; 94 yo F',
    # characters a case-insensitive pattern takes for ASCII letters: dotted and dotless i, long s, Kelvin
    "İNFO: ſaint ıgnatius hoſpital, KOUNTY ſuffolk, born ſeptember 3 1929",
    "Zoë Müller — seen → 5/5 strength · 37.2° at Clínica São José",
    # the facility recognizer's shapes: acronyms after a cue and before a record, churches, posts
    "tx from BIDMC; MGH burn; DFCI #: 02-118-774; Emory MRN E7720419; St. Vincent de Paul Hospital",
    "Our Saviour's Lutheran, Mt. Pisgah M.B. Church, FIRST BAPTIST; VFW Post 4768; F/V NORTHERN DAWN",
    "son will at bedside; WIFE MAY AT BEDSIDE; partner sky updated; stepson Jo is the poa",
    "pt goes by Yas, aka BOBBY, prefers to be called 'Jim'; a.k.a. Mo; nickname: Tex",
)


@pytest.fixture(scope="module")
def scanners() -> list[tuple[re.Pattern[str], Scanner]]:
    recognizers = Deidentifier()._analyzer.registry.recognizers
    patterns = [
        (regex, recognizer._scanners[name])
        for recognizer in recognizers
        if isinstance(recognizer, RegexRecognizer)
        for name, regex, _ in recognizer._compiled
    ]
    facility = FacilityRecognizer
    others = (
        LABEL_CUE,
        VERB_CUE,
        LabelledIdRecognizer.LABEL_START,
        facility.HEADS,
        facility.ACRONYM,
        facility.ACRONYM_SERVICE,
        facility.RECORD_ACRONYM,
        facility.RECORD_NAME,
        facility.SAINT,
        facility.PATRON_CHURCH,
        facility.POST,
        facility.VIRTUE_CHURCH,
        KinGivenNameRecognizer.PATTERN,
        NicknameRecognizer.GOES_BY,
    )
    return patterns + [(scanner.regex, scanner) for scanner in others]


def spans(matches: Iterable[re.Match[str]]) -> list[tuple[int, int, tuple[tuple[int, int], ...]]]:
    return [(m.start(), m.end(), tuple(m.span(g) for g in range(1, m.re.groups + 1))) for m in matches]


def test_every_pattern_of_the_recognizers_finds_the_same_matches(
    scanners: list[tuple[re.Pattern[str], Scanner]],
) -> None:
    for regex, scanner in scanners:
        for text in TEXTS:
            assert spans(scanner.finditer(text)) == spans(regex.finditer(text)), regex.pattern[:60]


@pytest.mark.parametrize(
    ("pattern", "flags", "text"),
    [
        (r"\b(?:county|co\.)\s+\w+", re.IGNORECASE, "KOUNTY Kerry, co. Cork, County Clare"),
        (r"saint\s+\w+", re.IGNORECASE, "ſaint Ann and SAINT Jude"),
        (r"info", re.IGNORECASE, "İNFO ınfo info"),
        (r"(?<!\d)apt\s*\d+", re.IGNORECASE, "apt 4, APT5, 3apt 6"),
        (r"(?:ab|b)c", 0, "abc bc xbc"),  # overlapping leading literals: "ab" and "b" at 0 and 1
        (r"(?:mr|mrs)\.?\s+(?-i:[A-Z])\w+", re.IGNORECASE, "MRS Smith, mr jones, Mr. Lee"),
        (r"\d+/\d+", 0, "7/10 and 3/4"),  # no literal: runs as before
        # behind a word boundary, looked up among word starts: one letter, a word's own start, a
        # start after a non-ASCII letter or a digit, a boundary in one branch only
        (r"\b(?:o|op)\s*\d", re.IGNORECASE, "o 2, OP3, so 4, éop 5, 9op 6, (op 7), op-o 8"),
        (r"\b(?:st|saint)\.?\s+\w+", re.IGNORECASE, "ſt Jude, ST. Ann, first aid, SAINT Paul, _st x"),
        (r"(?:\bapt|unit)\s*\d+", re.IGNORECASE, "apt 4, xapt 5, subunit 6, APT7"),
        (r"\b(?=[a-z])(?:mr|mrn)\s*#?\d+", re.IGNORECASE, "MRN 12, mr#3, Xmrn 4, mrn5"),
        (r"\b#\d+", 0, "bed#4 and #5"),  # a boundary before a non-word character: searched for
        (r"\b(?:ab|b)c", re.ASCII | re.IGNORECASE, "éabc ébc abc"),  # ASCII boundaries: as before
    ],
)
def test_scanner_matches_finditer(pattern: str, flags: int, text: str) -> None:
    regex = re.compile(pattern, flags)
    assert spans(Scanner(regex).finditer(text)) == spans(regex.finditer(text))


def test_fold_keeps_offsets() -> None:
    text = "İstanbul ſ K ΑΣ Straße"
    assert len(fold(text)) == len(text)
    assert fold(text).startswith("istanbul s k")


def test_no_other_character_matches_an_ascii_letter_outside_fold() -> None:
    """fold() must turn every character that a case-insensitive pattern takes for an ASCII letter
    into that letter, or a Scanner would skip a real match."""
    letters = re.compile("[a-z]", re.IGNORECASE)
    for code in range(0x80, 0x110000):
        char = chr(code)
        if letters.fullmatch(char):
            assert fold(char).isascii() and re.fullmatch(fold(char), char, re.IGNORECASE), hex(code)


def test_the_long_alternations_are_tried_only_where_their_words_start(
    scanners: list[tuple[re.Pattern[str], Scanner]],
) -> None:
    """A branch that begins with an optional part ("(?:first\\s*)?name") leaves a whole alternation
    without leading literals, and it is then run over every text (the cue and holiday patterns cost
    0.05-0.1 ms a question that way)."""
    holiday = next(scanner for regex, scanner in scanners if "christmas" in regex.pattern)
    for scanner in (LABEL_CUE, VERB_CUE, holiday):
        assert scanner._leading is not None, scanner.regex.pattern[:60]
