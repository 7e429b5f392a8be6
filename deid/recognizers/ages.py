"""Ages of 90 and over (Safe Harbor C: they must be aggregated into "90 or older")."""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer, before
from deid.recognizers.name_words import FAMILY
from deid.types import AGE

OLD = r"(?:9\d|1[01]\d)"
ONES = r"(?:one|two|three|four|five|six|seven|eight|nine)"
OLD_WORDS = rf"(?:ninety(?:[\s-]+{ONES})?|one\s+hundred(?:\s+(?:and\s+)?{ONES})?)"
ORDINAL_WORDS = r"(?:ninety[\s-]+(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth)|ninetieth|(?:one\s+)?hundredth)"
# Units after a number that make it a measurement, not an age: "is 92%", "was 95 kg".
NOT_AN_AGE = r"(?![.,]\d|\s*(?:%|°|/|-|kg|lbs?|mm|cm|ml|mg|bpm|beats|breaths|over\b|percent))"
# A relative, or a pronoun: who is said to be 90 or over ("my grandpa is 91", "Mom (92)").
KIN = "|".join(sorted(FAMILY | {"granny", "gran", "grandad", "nana", "nan", "mama", "papa", "auntie"}))
YEARS_OLD = r"(?:y/?o[fm]?\b|yoa\b|y\.o\.?|y[fm]\b|yr?s?\.?(?:[\s-]+old)?\b|years?(?:[\s-]+old|\s+of\s+age)?\b|yrs?\b|-?year-old)"


# A capitalised word, accented letters included ("Conceição").
CAPITALISED = r"[A-ZÀ-Þ][a-zß-ÿ]+"

CAPITALISED_WORD = re.compile(CAPITALISED)
# A name as a note writes it before an age set off by commas: "Pike", "GARO"
NAME_SHAPE = re.compile(rf"{CAPITALISED}|[A-Z]{{3,}}")

# "shocked at 100 J.": joules of a defibrillator, not the German "Jahre"
ENERGY_BEFORE = re.compile(r"shock|defib|cardiover|biphasic|monophasic|joule|\bdc\b")
TEMPERATURE_OR_PULSE = re.compile(r"(?:\bt|\btemp|\btmax|fever|febrile|°|\bhr|\bpulse)\W*$|°")


# The subject of "is 92" that is a person: a pronoun, a word for the patient, a relative.
PEOPLE = (
    frozenset("i she he they who patient pt veteran resident client member lady woman man gentleman".split())
    | FAMILY
)


class AgeRecognizer(RegexRecognizer):
    ENTITY = AGE
    PATTERNS = (
        ("number_years", rf"(?<![\d.])(?P<phi>{OLD})\+?\s*-?\s*{YEARS_OLD}", 0.9),
        ("words_years", rf"\b(?P<phi>{OLD_WORDS})[\s-]*{YEARS_OLD}", 0.9),
        # the word for years in Spanish, Portuguese, French, German, Dutch, Italian and Scandinavian
        # notes: "95 años", "92 ans", "(97 J.)", "91 Jahre", "94 anni", "93 år"
        (
            "foreign_years",
            rf"(?<![\d.,])(?P<phi>{OLD})\s?(?:años|anos|ans|jahren?|jaar|anni|år|j\.(?=\s*[),;]))(?!\w)",
            0.8,
        ),
        ("age_label", rf"\b(?:age[ds]?|aged)\s*(?:of|:|=)?\s*(?P<phi>{OLD}|{OLD_WORDS})\b(?!\.\d)", 0.85),
        # "92F", "92 yo M", "92 M" at the start of a one-liner; not "T 98F" or "98.6F"
        ("sex_suffix", rf"(?<![\d./])(?P<phi>{OLD})\s?/?\s?(?:f|m)\b(?!\s*(?:°|deg|/))", 0.7),
        # age and sex the other way round, as Indian and UK notes write them: "F/94", "M/ 91"
        ("sex_prefix", rf"(?<![\w/])(?:f|m)\s?/\s?(?P<phi>{OLD})\b(?![./]\d)", 0.7),
        (
            "decade",
            r"\b(?:in\s+)?(?:his|her|their|early|mid|late)[\s-]+(?P<phi>(?:9|10)0'?s|nineties)\b",
            0.8,
        ),
        ("nonagenarian", r"\b(?:nonagenarian|centenarian|supercentenarian)\b", 0.8),
        # "in her tenth decade": the decade of life from 90
        ("tenth_decade", r"\b(?:tenth|eleventh|10th|11th)\s+decade(?:\s+of\s+life)?\b", 0.8),
        # "turned 95", "a woman of 93", "her 96th birthday"
        (
            "turned",
            rf"\b(?:turn(?:ed|s|ing)|(?:wo)?man\s+of|lady\s+of|gentleman\s+of)\s+(?P<phi>{OLD})\b"
            r"(?![.,]\d|\s*(?:°|deg|%|mm|cm|ml|mg))",
            0.75,
        ),
        (
            "birthday",
            rf"\b(?P<phi>{OLD}(?:st|nd|rd|th)|{ORDINAL_WORDS})\s+(?:birthday|bday|b-day)\b",
            0.8,
        ),
        # in brackets after a name: "Mrs Jones (94) lives alone"
        ("name_brackets", rf"(?-i:\b{CAPITALISED})\s\((?P<phi>{OLD})\)", 0.6),
        # and after a title and a surname in any letter case: "mrs o'hare (101)", "MR DUNNE (93)"
        ("titled_brackets", rf"\b(?:mrs|mr|ms|miss|mx)\.?\s+[^\W\d_][\w'’-]*\s\((?P<phi>{OLD})\)", 0.6),
        # and after a relative: "my dad (92)", "Mom (92 as of last week!)"
        ("kin_brackets", rf"\b(?:{KIN})\s?\((?P<phi>{OLD})\b{NOT_AN_AGE}", 0.6),
        # an age to come: "I will be 90 in August", "she'll be ninety-one"
        (
            "will_be",
            rf"\b(?:i|she|he|they|who|{KIN})(?:\s+will|['’]ll)\s+be\s+(?P<phi>{OLD}|{OLD_WORDS})\b{NOT_AN_AGE}",
            0.6,
        ),
        # an age set off by commas after a name: "Sister Mary Catherine, 97, from ...", "Mr Pike,
        # 90, MRSA positive", "HUSBAND GARO, NINETY-SIX, AT BEDSIDE"
        # (these two begin at the comma or the verb, where the text is searched for them cheaply; the
        # name before is checked by validate)
        ("after_name", rf",[ ]+(?P<phi>{OLD}|{OLD_WORDS})(?:,\s+|[?;)]|\.(?!\d))", 0.6),
        # an age in brackets after a date of birth: "DOB: 30/05/1933 (92)"
        (
            "after_birth_date",
            rf"\b(?i:dob|d\.o\.b\.?|born|date\s+of\s+birth)\b[^\n()]{{0,24}}\((?P<phi>{OLD})\)",
            0.7,
        ),
        # an age that only a person has: "now 92 and living alone"
        (
            "and_lives",
            rf"(?<![\d.,/])(?P<phi>{OLD}|{OLD_WORDS})\s+and\s+(?:still\s+)?(?:lives|living)\b",
            0.6,
        ),
        # an age said of a person: "she's 92, 44 kg", "he is 95 and lives alone", "Idris is 91 now",
        # "my uncle is 93", "pt is ninety-two", 'She said "I'm ninety"'
        (
            "person_is",
            rf"(?:['’][sm]|[ ](?i:is|was|am))[ ]+(?i:now[ ]+)?[\"“]?(?P<phi>{OLD}|{OLD_WORDS})\b{NOT_AN_AGE}",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern in ("name_brackets", "after_name", "person_is"):
            return self._said_of_a_person(text, start, pattern)
        if pattern == "foreign_years" and text[end:].lower().startswith((" j", "j")):
            return not ENERGY_BEFORE.search(before(text, start, 40))
        if pattern in ("sex_suffix", "sex_prefix"):
            # Temperatures and other measurements in Fahrenheit, or a pulse of 92: not ages.
            return not TEMPERATURE_OR_PULSE.search(before(text, start, 16))
        return True

    def _said_of_a_person(self, text: str, start: int, pattern: str) -> bool:
        """The word before the age is a pronoun or a name, not a score or a vital sign: "Mrs Jones
        (94)", "Mr Pike, 90,", "she's 92"; not "Morse (95)", "SpO2 (94)", "Sats is 92"."""
        head = re.sub(
            r"(?i:['’][sm]|\s+is|\s+was|\s+am)?\W*(?i:now\s+)?$", "", text[max(0, start - 30) : start]
        )
        words = re.findall(r"[^\W\d_]+", head)
        if not words:
            return False
        word = words[-1].lower()
        if pattern == "person_is" and word in PEOPLE:
            return True
        shape = NAME_SHAPE if pattern == "after_name" else CAPITALISED_WORD
        if not shape.fullmatch(words[-1]):
            return False
        titled = re.search(r"\b(?:mr|mrs|ms|miss|mx|dr)\.?\s+[\w'-]+$", head, re.IGNORECASE)
        lex = self.lexicon
        # a common word as the subject of "is 92" is a measurement's name: "Weight was 92"
        common = pattern == "person_is" and lex.zipf(word) >= 4.5
        return bool(titled) or not (
            lex.is_clinical(word) or word in lex.medical_words or word in lex.eponyms or common
        )
