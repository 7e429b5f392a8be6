"""National and health-service identifiers outside the US, found by their published structure and
check digit (Safe Harbor H, I, R): NHS and CHI numbers, Aadhaar, Irish PPSN, UK National Insurance
numbers, Canadian health card numbers and SINs, Australian Medicare numbers.

A number of the right shape is taken when its check digit agrees, or when a label names the scheme
("NHS no", "OHIP", "Aadhaar"); a shape without either is left to the phone and code recognizers.
"""

from __future__ import annotations

import re
from typing import ClassVar

from deid import checksums
from deid.recognizers.base import RegexRecognizer, before
from deid.types import ID

SEP = r"[ -]?"


def _labelled_by(words: str) -> re.Pattern[str]:
    """A label naming the scheme, shortly before the number on its line (matched in lower case)."""
    return re.compile(rf"\b(?:{words})\b[^\n]{{0,25}}$")


class ChecksumIdRecognizer(RegexRecognizer):
    """PATTERNS of one scheme; check() validates its characters, CONTEXT names the scheme before it."""

    ENTITY = ID
    CONTEXT: ClassVar[re.Pattern[str]]
    # Without the scheme's label a valid check digit is enough (False: the label is required too).
    CHECK_ALONE: ClassVar[bool] = True

    # Without a label, numbers in spaced groups need more than a check digit, which one random number
    # in ten passes: not a list of readings ("1200 850 300", "110 145 180").
    SPACED_ALONE: ClassVar[bool] = True

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if self.CONTEXT.search(before(text, start, 40)):
            return True  # labelled: taken even with a mistyped check digit
        value = text[start:end]
        groups = re.findall(r"\d+", value)
        if " " in value and (not self.SPACED_ALONE or all(g[-1] in "05" for g in groups)):
            return False
        return self.CHECK_ALONE and self.check(re.sub(r"[^0-9A-Za-z]", "", value))

    def check(self, code: str) -> bool:
        """Whether the identifier's check digit (or other internal structure) is right."""
        raise NotImplementedError


class NhsNumberRecognizer(ChecksumIdRecognizer):
    """NHS numbers (England, Wales) and Scottish CHI numbers: 10 digits, "943 476 5919".
    The 3-3-4 shape is also a North American phone number, so the label is required."""

    PATTERNS = (("nhs", rf"(?<![\w+/.-])\d{{3}}{SEP}\d{{3}}{SEP}\d{{4}}(?![\w/-]|[.,]\d)", 0.95),)
    CONTEXT = _labelled_by(r"nhs|chi|h&c|health\s+and\s+care")
    CHECK_ALONE = False

    def check(self, code: str) -> bool:
        return checksums.nhs_number(code)


class AadhaarRecognizer(ChecksumIdRecognizer):
    """Aadhaar (India): 12 digits, the first 2-9, Verhoeff check digit: "2341 2341 2346"."""

    PATTERNS = (("aadhaar", rf"(?<![\w+/.-])[2-9]\d{{3}}{SEP}\d{{4}}{SEP}\d{{4}}(?![\w/-]|[.,]\d)", 0.9),)
    CONTEXT = _labelled_by(r"aadh?aar|uid(?:ai)?|uidai")

    def check(self, code: str) -> bool:
        return checksums.verhoeff(code)


class PpsnRecognizer(ChecksumIdRecognizer):
    """Irish Personal Public Service Number: 7 digits and a mod-23 check letter: "1234567T"."""

    PATTERNS = (("ppsn", r"(?<![\w/-])\d{7}\s?[A-W][A-IW]?(?![\w/-])", 0.9),)
    CONTEXT = _labelled_by(r"ppsn?|pps\s+(?:no|number)|personal\s+public\s+service")

    def check(self, code: str) -> bool:
        return checksums.ppsn(code)


class UkNinoRecognizer(RegexRecognizer):
    """UK National Insurance number: two letters (not D F I Q U V, second not O, not BG GB KN NK NT
    TN ZZ), six digits, a letter A-D: "QQ 12 34 56 C". Capitals only: in lower case the shape is
    too close to a vital-sign list ("hr 72 80 90 a")."""

    ENTITY = ID
    FLAGS = 0
    PATTERNS = (
        (
            "nino",
            r"\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\s?\d{2}\s?\d{2}\s?\d{2}\s?[A-D]\b",
            0.85,
        ),
        # after its label, in any case and with any prefix: "NI no qq 12 34 56 c"
        (
            "nino_labelled",
            r"(?i:\b(?:nino|national\s+insurance|ni)\s*(?:no\.?|number|#)?\s*[:#]?\s*"
            r"(?P<phi>[a-z]{2}\s?\d{2}\s?\d{2}\s?\d{2}\s?[a-d]))\b",
            0.9,
        ),
    )


class CanadianHealthCardRecognizer(ChecksumIdRecognizer):
    """Provincial health card numbers: Ontario (10 digits, Luhn, a two-letter version code:
    "1234-567-897-AB"), British Columbia (10 digits from 9, mod 11), Nova Scotia and others
    (10 digits) when labelled; Quebec RAMQ ("TREM 8501 1512": four letters, birth date, two digits)."""

    PATTERNS = (
        (
            "ten_digits",
            rf"(?<![\w+/.-])\d{{4}}{SEP}\d{{3}}{SEP}\d{{3}}(?:{SEP}(?-i:[A-Z]{{2}}))?(?![\w/-]|[.,]\d)",
            0.85,
        ),
        ("ramq", r"(?-i:\b[A-Z]{4}\s?\d{4}\s?\d{4}\b)", 0.85),
    )
    CONTEXT = _labelled_by(
        r"ohip|health\s+card|hcn|phn|personal\s+health|ramq|carte\s+soleil|msp|ahcip|mcp|health\s+(?:no|number)"
    )

    def check(self, code: str) -> bool:
        if code[:4].isalpha():  # RAMQ: YYMMDD with 50 added to the month for women
            month, day = int(code[6:8]), int(code[8:10])
            return (1 <= month <= 12 or 51 <= month <= 62) and 1 <= day <= 31
        digits = code[:10]
        return checksums.luhn(digits) or checksums.bc_phn(digits)


class SinRecognizer(ChecksumIdRecognizer):
    """Canadian Social Insurance Number: nine digits in threes, Luhn: "046 454 286"."""

    PATTERNS = (("sin", r"(?<![\w+/.-])[1-79]\d{2}[ -]\d{3}[ -]\d{3}(?![\w/-]|[.,]\d)", 0.8),)
    CONTEXT = _labelled_by(r"sin|social\s+insurance")
    SPACED_ALONE = False  # three 3-digit readings are common in notes ("bg 112 147 183")

    def check(self, code: str) -> bool:
        return checksums.luhn(code)


class AuMedicareRecognizer(ChecksumIdRecognizer):
    """Australian Medicare card: ten digits 4-5-1 with a check digit, and the card's position
    ("2123 45670 1", "2123 45670 1/2")."""

    PATTERNS = (
        ("medicare_au", r"(?<![\w+/.-])[2-6]\d{3}\s?\d{5}\s?\d(?:\s?/\s?\d|-\d)?(?![\w/-]|[.,]\d)", 0.85),
    )
    CONTEXT = _labelled_by(r"medicare|irn")

    def check(self, code: str) -> bool:
        return checksums.au_medicare(code)
