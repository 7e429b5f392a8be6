"""Postal codes outside the US (Safe Harbor B; US ZIP codes are in locations.py): UK postcodes,
Canadian postal codes, Irish Eircodes and Dublin districts, Australian postcodes after their state,
Indian PIN codes after a town, codes before or after a gazetteer town as most other countries write
them ("1012 AB Amsterdam", "Cape Town 8001"), and any code after a "postcode" label.

Each country's code has a fixed alphabet, which keeps clinical shapes out: "L4 5TH" would be a UK
postcode but ordinals are excluded, "G2P1A0" (gravida/para) would be a Canadian one but a postal
code is written with its space.
"""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer, before
from deid.recognizers.name_words import NOT_NAMES
from deid.types import LOCATION

# Royal Mail's alphabet: the outward code's letters and the inward code's two letters (no C I K M O V).
UK_OUTWARD = r"(?:[A-PR-UWYZ][0-9][0-9A-HJKPS-UW]?|[A-PR-UWYZ][A-HK-Y][0-9][0-9ABEHMNPRV-Y]?|GIR)"
UK_INWARD = r"[0-9][ABD-HJLNP-UW-Z]{2}"
# Canada Post: no D F I O Q U; W and Z never first.
CA_FIRST = "[ABCEGHJ-NPRSTVXY]"
CA_LETTER = "[ABCEGHJ-NPRSTV-Z]"
# An Eircode: a routing key (a letter and two digits, or D6W) and four characters of its alphabet.
EIRCODE = r"(?:[AC-FHKNPRTV-Y]\d{2}|D6W)\s?[0-9AC-FHKNPRTV-Y]{4}"
AU_STATES = r"(?:NSW|VIC|QLD|SA|WA|TAS|NT|ACT)"
POSTCODE_LABEL = r"(?=[pze])(?:post\s?code|postal\s+code|zip(?:\s*code)?|pin\s*code|pin|eircode)"


class PostcodeRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        ("uk", rf"\b{UK_OUTWARD}\s{UK_INWARD}\b(?![\w-])", 0.85),
        ("uk_lower", rf"(?i:\b{UK_OUTWARD}\s{UK_INWARD}\b)(?![\w-])", 0.6),
        ("canada", rf"(?i:\b{CA_FIRST}\d{CA_LETTER}[ -]\d{CA_LETTER}\d\b)", 0.85),
        ("eircode", rf"\b{EIRCODE}\b", 0.8),
        # a Dublin postal district (An Post), which Eircodes did not replace in writing: "Dublin 7"
        ("dublin_district", r"\b(?i:Dublin)\s(?:[1-9]|1\d|2[0-4]|6W)\b(?![\d.:/,]\d)", 0.8),
        ("australia", rf"\b{AU_STATES},?\s+(?P<phi>\d{{4}})\b(?![\d/.-])", 0.8),
        # "Bengaluru - 560034", "Chennai 600 028": an Indian PIN code after a town
        ("india_pin", r"(?<![\w/.,:-])[1-9]\d{2}\s?\d{3}\b(?![\d/.-])", 0.75),
        # a code before its town, as most of Europe and Latin America write it: "1012 AB Amsterdam",
        # "10115 Berlin", "01310-100 São Paulo"
        ("code_town", r"(?<![\w/.,:-])(?:\d{4}\s?[A-Z]{2}|\d{5}-\d{3}|\d{4,5})(?=\s[A-ZÀ-Þ][\w'’-]+)", 0.75),
        # a four- or five-digit code after its town: "Cape Town 8001", "Wellington 6011", "Karachi 75500"
        (
            "town_code",
            r"(?<=[a-z])[ ]{1,2}(?!(?:19|20)\d\d\b)(?P<phi>\d{4,5})\b(?![\d/.:,-]\d|\s?(?:mg|ml|kg|units?|%))",
            0.7,
        ),
        (
            "labelled",
            rf"(?i:\b{POSTCODE_LABEL}\s*(?:no\.?|number)?\s*[:#-]?\s*)(?P<phi>[A-Za-z0-9]{{2,5}}(?:[\s-][A-Za-z0-9]{{2,4}})?)\b",
            0.85,
        ),
    )
    ORDINAL = re.compile(r"\d(?:st|nd|rd|th)$", re.IGNORECASE)
    # the town a PIN code follows: "Bengaluru - 560034", "Chennai 600 028", "Mumbai, 400001"
    TOWN_BEFORE = re.compile(r"([A-Za-z]+)\.?[ \t]*[,-]?[ \t]*$")
    TOWN_AFTER = re.compile(r"\s[A-ZÀ-Þ][\w'’-]+(?:[ ][A-ZÀ-Þ][\w'’-]+)?")
    TOWN_NAME_BEFORE = re.compile(r"[A-Z][\w'’-]+(?:[ ][A-Z][\w'’-]+)?(?=,?[ ]{1,2}$)")

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        code = text[start:end]
        if pattern in ("uk", "uk_lower"):
            if self.ORDINAL.search(code):
                return False  # "L4 5TH", "c5 6th"
            # in lower case only after an address: a town, a street or a comma before it
            return pattern == "uk" or bool(
                re.search(r"[a-z],\s*$|\b(?:address|post\s?code)\W*$", before(text, start))
            )
        if pattern == "eircode":
            tail = code[-4:]
            return any(c.isdigit() for c in tail) and any(c.isalpha() for c in tail)
        if pattern == "india_pin":
            town = self.TOWN_BEFORE.search(text, max(0, start - 30), start)
            return town is not None and (self.lexicon.is_town(town[1]) or self.lexicon.is_place_word(town[1]))
        if pattern == "code_town":
            town = self.TOWN_AFTER.match(text, end)
            return town is not None and self._is_town(town)
        if pattern == "town_code":
            town = self.TOWN_NAME_BEFORE.search(text, max(0, start - 30), start)
            return town is not None and self._is_town(town)
        if pattern == "labelled":
            return any(c.isdigit() for c in code)
        return True

    def extend(self, text: str, start: int, end: int, pattern: str) -> tuple[int, int]:
        """The town with its code: "1012 AB Amsterdam", "Cape Town 8001"."""
        if pattern == "code_town" and (town := self.TOWN_AFTER.match(text, end)) and self._is_town(town):
            return start, town.end()
        if pattern == "town_code" and (town := self.TOWN_NAME_BEFORE.search(text, max(0, start - 30), start)):
            return town.start(), end
        return start, end

    def _is_town(self, town: re.Match[str]) -> bool:
        """A gazetteer town, of one or two capitalised words, that is not a country or a state."""
        name = town.group().strip()
        if name.split()[0].lower() in NOT_NAMES:
            return False  # "DISCHARGED 1500 HOME": a time and a word
        return self.lexicon.is_town(name) and not self.lexicon.is_place_word(name)
