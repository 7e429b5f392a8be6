"""Ages of 90 and over (Safe Harbor C: they must be aggregated into "90 or older")."""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer, before
from deid.types import AGE

OLD = r"(?:9\d|1[01]\d)"
ONES = r"(?:one|two|three|four|five|six|seven|eight|nine)"
OLD_WORDS = rf"(?:ninety(?:[\s-]+{ONES})?|one\s+hundred(?:\s+(?:and\s+)?{ONES})?)"
YEARS_OLD = r"(?:y/?o[fm]?\b|yoa\b|y\.o\.?|y[fm]\b|yr?s?\.?(?:[\s-]+old)?\b|years?(?:[\s-]+old|\s+of\s+age)?\b|yrs?\b|-?year-old)"


TEMPERATURE_OR_PULSE = re.compile(r"(?:\bt|\btemp|\btmax|fever|febrile|°|\bhr|\bpulse)\W*$|°")


class AgeRecognizer(RegexRecognizer):
    ENTITY = AGE
    PATTERNS = (
        ("number_years", rf"(?<![\d.])(?P<phi>{OLD})\s*-?\s*{YEARS_OLD}", 0.9),
        ("words_years", rf"\b(?P<phi>{OLD_WORDS})[\s-]*{YEARS_OLD}", 0.9),
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
        ("birthday", rf"\b(?P<phi>{OLD}(?:st|nd|rd|th))\s+(?:birthday|bday|b-day)\b", 0.8),
        # in brackets after a name: "Mrs Jones (94) lives alone"
        ("name_brackets", rf"(?-i:\b[A-Z][a-z]+)\s\((?P<phi>{OLD})\)", 0.6),
        # an age set off by commas after a name: "Sister Mary Catherine, 97, from ..."
        ("after_name", rf"(?-i:\b[A-Z][a-z]+),\s+(?P<phi>{OLD})(?:,\s+(?-i:[a-z])|[?;)]|\.(?!\d))", 0.6),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "name_brackets":
            # a name, not a score or a vital sign: "Mrs Jones (94)", not "Morse (95)", "SpO2 (94)"
            head = text[max(0, start - 30) : start - 1].rstrip(" (")
            word = re.findall(r"[A-Za-z]+", head)[-1].lower()
            titled = re.search(r"\b(?:mr|mrs|ms|miss|mx|dr)\.?\s+[A-Za-z'-]+$", head, re.IGNORECASE)
            lex = self.lexicon
            return bool(titled) or not (
                lex.is_clinical(word) or word in lex.medical_words or word in lex.eponyms
            )
        if pattern in ("sex_suffix", "sex_prefix"):
            # Temperatures and other measurements in Fahrenheit, or a pulse of 92: not ages.
            return not TEMPERATURE_OR_PULSE.search(before(text, start, 16))
        return True
