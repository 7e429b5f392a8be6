"""Ages of 90 and over (Safe Harbor C: they must be aggregated into "90 or older")."""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer, before
from deid.types import AGE

OLD = r"(?:9\d|1[01]\d)"
ONES = r"(?:one|two|three|four|five|six|seven|eight|nine)"
OLD_WORDS = rf"(?:ninety(?:[\s-]+{ONES})?|one\s+hundred(?:\s+(?:and\s+)?{ONES})?)"
YEARS_OLD = (
    r"(?:y/?o\b|y\.o\.?|yr?s?\.?(?:[\s-]+old)?\b|years?(?:[\s-]+old|\s+of\s+age)?\b|yrs?\b|-?year-old)"
)


TEMPERATURE_OR_PULSE = re.compile(r"(?:\bt|\btemp|\btmax|fever|febrile|°|\bhr|\bpulse)\W*$|°")


class AgeRecognizer(RegexRecognizer):
    ENTITY = AGE
    PATTERNS = (
        ("number_years", rf"(?<![\d.])(?P<phi>{OLD})\s*-?\s*{YEARS_OLD}", 0.9),
        ("words_years", rf"\b(?P<phi>{OLD_WORDS})[\s-]*{YEARS_OLD}", 0.9),
        ("age_label", rf"\b(?:age[ds]?|aged)\s*(?:of|:|=)?\s*(?P<phi>{OLD}|{OLD_WORDS})\b(?!\.\d)", 0.85),
        # "92F", "92 yo M", "92 M" at the start of a one-liner; not "T 98F" or "98.6F"
        ("sex_suffix", rf"(?<![\d.])(?P<phi>{OLD})\s?(?:f|m)\b(?!\s*(?:°|deg))", 0.7),
        (
            "decade",
            r"\b(?:in\s+)?(?:his|her|their|early|mid|late)[\s-]+(?P<phi>(?:9|10)0'?s|nineties)\b",
            0.8,
        ),
        ("nonagenarian", r"\b(?:nonagenarian|centenarian)\b", 0.8),
        # an age set off by commas after a name: "Sister Mary Catherine, 97, from ..."
        ("after_name", rf"(?-i:\b[A-Z][a-z]+),\s+(?P<phi>{OLD})(?:,\s+(?-i:[a-z])|[?;)]|\.(?!\d))", 0.6),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "sex_suffix":
            # Temperatures and other measurements in Fahrenheit, or a pulse of 92: not ages.
            return not TEMPERATURE_OR_PULSE.search(before(text, start, 16))
        return True
