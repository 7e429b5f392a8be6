"""Phone, fax and pager numbers; email addresses; URLs; IP addresses (Safe Harbor D, E, F, N, O)."""

from __future__ import annotations

import ipaddress
import re

from deid.recognizers.base import RegexRecognizer, before
from deid.types import EMAIL, IP, PHONE, URL

EXTENSION = r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,5})?"
PHONE_LABEL = (
    r"(?:pager|pgr|page|paged|beeper|bleep|ext\.?|extension|phone|ph|tel|telephone|cell|mobile|fax|"
    r"call(?:ed)?|call\s?back|cb|contact|reach|number|no\.|#|x)"
)
TLDS = (
    r"(?:com|org|net|edu|gov|mil|int|io|info|biz|health|care|md|us|uk|ca|au|de|fr|in|co|me|app|"
    r"online|site|clinic|hospital|nhs)"
)


class PhoneRecognizer(RegexRecognizer):
    ENTITY = PHONE
    PATTERNS = (
        # (617) 555-0142, 617-555-0142, 617.555.0142, +1 617 555 0142, with an extension
        (
            "nanp",
            rf"(?<![\w+/.-])(?:\+?1[\s.-]?)?(?:\(\d{{3}}\)\s?|\d{{3}}[\s.-])\d{{3}}[\s.-]\d{{4}}(?![\d/-]){EXTENSION}",
            0.9,
        ),
        ("nanp_bare", r"(?<![\w+/.-])(?:\+?1)?\d{10}(?!\d)", 0.5),
        # a seven-digit local number without its area code: "cell 555-0142", "(h) 555 0142"
        ("local", r"(?<![\w+/.:-])\d{3}[-.]\d{4}(?![\w/-]|\.\d)", 0.5),
        ("international", r"(?<![\w/.-])\+(?:[2-9]\d{0,2})(?:[\s.-]?\d{1,4}){2,5}(?!\d)", 0.8),
        # short internal numbers need a label: "pager 4-5521", "x4417", "ext. 22", "pgr #12345"
        (
            "internal",
            rf"\b{PHONE_LABEL}\s*[:#]?\s*(?P<phi>\d{{1,2}}-\d{{4}}|\d{{4,5}}|\d{{3}}-\d{{4}})(?![\d/]|\.\d|-\d)",
            0.75,
        ),
        # "PAGED 0415 AT 5-8812", "call him at 4-4417", "reached at x4417": the number after "at"
        (
            "paged_at",
            r"\b(?:paged?|pager|called|call|reach(?:ed)?|contact(?:ed)?|text(?:ed)?|beeped)\b[^.\n]{0,25}?"
            r"\b(?:at|@|on)\s*(?:x\s*)?(?P<phi>\d{1,2}-\d{4}|\d{5}|\d{3}-\d{4})(?![\d/]|\.\d|-\d)",
            0.75,
        ),
        (
            "extension",
            r"(?<=\d)\s*(?P<phi>(?:x|ext\.?)\s*\d{2,5})\b(?!\s*(?:h|hrs?|hours?|d|days?|min|doses?)\b)",
            0.8,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern == "nanp_bare":
            # Ten bare digits are a phone only with a phone cue; otherwise the ID recognizer takes them.
            return bool(re.search(PHONE_LABEL, before(text, start, 20)))
        if pattern == "local":
            # "120-1400" reads as a range when a unit follows or the first part is a round number.
            follows = text[end:].lower()
            return not re.match(r"\s*(?:mg|mcg|ml|cc|units?|%|g\b|kg|mm|cm|steps|cal)", follows)
        if pattern == "internal":
            label = before(text, start, 14)
            if re.search(r"(?:paged?|called|call)\s*$", label) and _is_clock_time(text[start:end]):
                return False  # "PAGED 0415": a time of day, not a number

            if re.search(r"(?:^|\W)x\s*$", label):
                # "x4417" is an extension, "x 5 days" a count: require four digits straight after.
                return len(text[start:end]) >= 4 and "-" not in text[start:end]
        return True


def _is_clock_time(digits: str) -> bool:
    return len(digits) == 4 and digits.isdigit() and int(digits[:2]) < 24 and int(digits[2:]) < 60


class EmailRecognizer(RegexRecognizer):
    ENTITY = EMAIL
    PATTERNS = (("email", r"\b[\w.%+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,24}\b", 0.95),)


class UrlRecognizer(RegexRecognizer):
    ENTITY = URL
    PATTERNS = (
        ("scheme", r"\b(?:https?|ftp)://[^\s<>\"']+[^\s<>\"'.,;:!?)\]]", 0.95),
        ("www", r"\bwww\.[^\s<>\"']+[^\s<>\"'.,;:!?)\]]", 0.9),
        ("domain_path", rf"(?<![@\w.-])(?:[a-z0-9-]+\.)+{TLDS}\b(?:/[^\s<>\"']*[^\s<>\"'.,;:!?)\]])?", 0.7),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        # "pt.in" or "d.c" are not domains: a domain needs a label of 2+ letters before its TLD.
        host = text[start:end].split("/", 1)[0]
        return pattern != "domain_path" or len(host.split(".")[-2]) >= 2


class IpRecognizer(RegexRecognizer):
    ENTITY = IP
    PATTERNS = (
        ("ipv4", r"(?<![\d.])(?:\d{1,3}\.){3}\d{1,3}(?!\d|\.\d)", 0.9),
        ("ipv6", r"(?<![\w:])(?:[0-9a-f]{1,4}:){2,7}[0-9a-f]{0,4}(?::[0-9a-f]{1,4})*(?![\w:])", 0.8),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        candidate = text[start:end]
        try:
            ipaddress.ip_address(candidate)
        except ValueError:
            return False
        # "10:30:00" is a time, not an IPv6 address
        return pattern == "ipv4" or candidate.count(":") >= 3
