"""Phone, fax and pager numbers; email addresses; URLs; IP addresses (Safe Harbor D, E, F, N, O)."""

from __future__ import annotations

import ipaddress
import re

from deid.recognizers.base import RegexRecognizer, before
from deid.types import EMAIL, IP, PHONE, URL

DASH = r"[-‐‑‒–—]"
SEP = rf"(?:\s?{DASH}\s?|[\s./])"
EXTENSION = r"(?:\s*(?:x|ext\.?|extension)\s*\d{1,5})?"
PHONE_LABEL = (
    r"(?:pager|pgr|page|paged|beeper|bleep(?:ed)?|blp|ext\.?|extn\.?|extension|phone|ph|tel|telephone|cell|"
    r"mobile|fax|call(?:ed)?|call\s?back|cb|contact|reach|number|no\.|#|x|pg|p|page\s+(?:me|to)(?:\s+at)?|"
    # hospital handsets and badges: Vocera, Spectralink, DECT and Ascom phones, long-range pagers
    r"vocera|spectralink|dect|ascom|lrp|long[\s-]range(?:\s+pager)?)"
)
# Words after which any grouping of digits is a phone number ("Mob: 9472 7916"), whatever its country.
NUMBER_LABEL = (
    r"(?=[a-z(])(?:(?:tel(?:ephone)?|phone|ph|mob(?:ile)?|cell(?:\s?phone)?|fax|landline|whats\s?app|pager|bleep)"
    r"(?:\s*(?:no\.?|number|#))?|(?:contact|home|work|office|daytime|evening|emergency)\s+"
    r"(?:no\.?|number|tel|phone)|(?:desk|office|home|work|mobile)(?=\s*:)|\([hwmc]\)|"
    r"(?:call|ring|phone|text|reach|contact)(?:ed)?\s+(?:(?:me|him|her|them|us|the\s+\w+)\s+)?(?:on|at)|"
    r"messages?\s+to|registered(?:\s+(?:mobile|number|phone))?)"
)
TLDS = (
    r"(?:com|org|net|edu|gov|mil|int|io|info|biz|health|care|md|us|uk|ca|au|de|fr|in|co|me|app|"
    r"online|site|clinic|hospital|nhs)"
)


class PhoneRecognizer(RegexRecognizer):
    ENTITY = PHONE
    PATTERNS = (
        # (617) 555-0142, 617-555-0142, 617.555.0142, +1 617 555 0142, with an extension; also as word
        # processors and hurried writers set them: "617‑555‑0142" (non-breaking or en dashes),
        # "617 - 555 - 0142", "617/555-0142", "(617)-555-0142", "1-(617)-555-0142"
        (
            "nanp",
            rf"(?<![\w+/.-])(?:\+?1\s?[.-]?\s?)?(?:\(\d{{3}}\)\s?{DASH}?\s?|\d{{3}}{SEP})\d{{3}}{SEP}\d{{4}}"
            rf"(?![\d/-]){EXTENSION}",
            0.9,
        ),
        ("nanp_bare", r"(?<![\w+/.-])(?:\+?1)?\d{10}(?!\d)", 0.5),
        # a seven-digit local number without its area code: "cell 555-0142", "(h) 555 0142"
        ("local", r"(?<![\w+/.:-])\d{3}[-.]\d{4}(?![\w/-]|\.\d)", 0.5),
        # E.164 and its written forms: "+44 20 7946 0958", "+44 (0)20 7946 0958", "+91 98765 43210",
        # "+234-803-123-4567", "0044 161 496 0000"; the trunk "(0)" some countries write is optional.
        (
            "international",
            # (a bracket is taken only with its pair: "(+971 50 555 3382)" ends before the last one)
            r"(?<![\w/.+-])(?:\(\+[1-9]\d{0,2}\)|(?:\+|\b00\s?)[1-9]\d{0,2})(?:[\s.-]?\(0\))?"
            r"(?:[\s.-]?(?:\(\d{1,5}\)|\d{1,5})){2,6}"
            rf"(?![\d/]|[.,]\d){EXTENSION}",
            0.8,
        ),
        # National numbers with their trunk 0 (UK, Ireland, India, Nigeria, Australia, most of Europe):
        # "020 7946 0958", "07700 900123", "(01) 555 1234", "0803 123 4567", "022-2345 6789".
        (
            "trunk",
            r"(?<![\w+/.:,-])(?:\(0\d{1,4}\)|0[1-9]\d{0,3})(?:[\s.-]?\d{2,5}){1,4}"
            rf"(?![\d/]|[.,:-]\d){EXTENSION}",
            0.75,
        ),
        # an area code in brackets without the trunk 0: "(71) 4233-6306", "(08) 8747 6301"
        ("bracketed", r"(?<![\w/(])\(\d{2,5}\)\s?\d{2,5}(?:[\s.-]\d{2,5}){1,2}(?![\d/]|[.,:-]\d)", 0.7),
        # Indian mobile numbers written without a trunk or country code: "98765 43210"
        ("india_mobile", r"(?<![\w+/.:,-])[6-9]\d{4}[\s-]\d{5}(?![\d/]|[.,:-]\d)", 0.7),
        # any grouping of 7-15 digits after a word that says a phone number follows: "Phone: 467 3395",
        # "Mob 9472 7916", "contact no. 9876543210", "call me on 0490 75 40 81"
        (
            "labelled",
            rf"\b{NUMBER_LABEL}\s*[:#.-]?\s*(?P<phi>\+?\(?\d[\d()]*(?:[\s.-]\(?\d[\d()]*){{0,5}})"
            rf"(?![\d/]|[.,:-]\d){EXTENSION}",
            0.7,
        ),
        # short internal numbers need a label: "pager 4-5521", "x4417", "ext. 22", "pgr #12345"
        (
            "internal",
            rf"\b{PHONE_LABEL}\s*[:#]?\s*(?P<phi>\d{{1,2}}-\d{{4}}|\d{{4,5}}|\d{{3}}-\d{{4}})(?![\d/]|\.\d|-\d)",
            0.75,
        ),
        # a pager's number said to be: "ortho resident pager is 4471"
        (
            "pager_is",
            r"\b(?:pager|pgr|beeper|bleep|vocera|extension|ext)\s+(?:number\s+|#\s*)?is\s+"
            r"(?P<phi>\d{1,2}-\d{4}|\d{4,5}|\d{3}-\d{4})(?![\d/]|\.\d|-\d)",
            0.75,
        ),
        # a three-digit extension after its own word: "Unit Manager   ext 225"
        (
            "short_extension",
            r"\b(?:ext|extn|extension|bleep|blp|pager|pgr)\.?\s*[:#]?\s*(?P<phi>\d{3})\b(?![\d/]|\.\d|-\d|\s*(?:mg|ml|units?)\b)",
            0.75,
        ),
        # "PAGED 0415 AT 5-8812", "call him at 4-4417", "reached at x4417": the number after "at"
        (
            "paged_at",
            r"\b(?:paged?|pager|called|call|reach(?:ed)?|contact(?:ed)?|text(?:ed)?|beep(?:ed)?|bleep(?:ed)?)\b[^.\n]{0,25}?"
            r"(?:\b(?:at|on)|@)\s*(?:x\s*)?(?P<phi>\d{1,2}-\d{4}|\d{4,5}|\d{3}-\d{4})(?![\d/]|\.\d|-\d)",
            0.75,
        ),
        # a pager named a few words before its number: "whats the cath lab pager again, 6-2244?"
        (
            "pager_then",
            r"\b(?:pager|pgr|beeper|bleep)\b[^.\n\d]{1,20}?[\s,:]\s*(?P<phi>\d{1,2}-\d{4}|\d{5})(?![\d/]|\.\d|-\d)",
            0.7,
        ),
        (
            "extension",
            r"(?<=\d)\s*(?P<phi>(?:x|ext\.?)\s*(?:\d-\d{4}|\d{2,5}))\b(?!\s*(?:h|hrs?|hours?|d|days?|min|doses?)\b)",
            0.8,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern in _DIGIT_RANGE:
            return _is_phone_shaped(text[start:end], _DIGIT_RANGE[pattern])
        if pattern == "nanp_bare":
            # Ten bare digits are a phone only with a phone cue; otherwise the ID recognizer takes them.
            return bool(re.search(PHONE_LABEL, before(text, start, 20)))
        if pattern == "local":
            # "120-1400" reads as a range when a unit follows or the first part is a round number.
            follows = text[end:].lower()
            return not re.match(r"\s*(?:mg|mcg|ml|cc|units?|%|g\b|kg|mm|cm|steps|cal)", follows)
        if pattern == "extension":
            # after a phone number's last seven digits: "555-0100 x22"; not a size or a duration,
            # "3.5 x 28 mm", "DM2 x 20 yrs"
            return PHONE_TAIL.search(text, max(0, start - 16), start) is not None
        if pattern == "paged_at" and _is_clock_time(text[start:end]):
            return False  # "paged at 0415", "called on 2230": a time of day
        if pattern == "internal":
            label = before(text, start, 14)
            if re.search(r"(?:paged?|called|call)\s*$", label) and _is_clock_time(text[start:end]):
                return False  # "PAGED 0415": a time of day, not a number

            number = text[start:end]
            if re.match(r"\s*(?:mg|mcg|ml|units?|g|kg|mmhg|%)\b", text[end : end + 8].lower()):
                return False  # "x 1200 mg": a dose, not an extension
            if re.search(r"(?:^|\W)[xp]\s*$", label):
                # "x4417" is an extension, "x 5 days" a count: require four digits straight after, or
                # an internal number's shape ("x 3-4420", "p 2-4490"; "p" alone is a page)
                if re.fullmatch(r"\d-\d{4}", number):
                    return True
                return label.rstrip().endswith("x") and len(number) >= 4 and "-" not in number
        return True


# The end of a phone number, right before its extension.
PHONE_TAIL = re.compile(r"\d{3}[\s.-]?\d{4}\)?\s*,?\s*\Z")
# How many digits a number of each pattern has (E.164 allows 15 after the country code's "+").
_DIGIT_RANGE = {"international": (8, 15), "trunk": (9, 12), "bracketed": (8, 12), "labelled": (7, 15)}
_DATE_START = re.compile(r"(\d{1,2})[\s./-](\d{1,2})[\s./-](?:1[89]|2\d)?\d\d(?!\d)")


def _is_phone_shaped(number: str, digit_range: tuple[int, int]) -> bool:
    """Enough digits for a phone number, and not a date or a list of clock times ("0600 1200 1800")."""
    main = re.sub(r"\s*(?:x|ext\.?|extension)\s*\d{1,5}$", "", number, flags=re.IGNORECASE)
    digits = sum(c.isdigit() for c in main)
    if not digit_range[0] <= digits <= digit_range[1] or main.count("(") != main.count(")"):
        return False
    date = _DATE_START.match(main)
    pairs = re.fullmatch(r"0[1-9](?:[ .]\d\d){4}", main)  # French and Belgian: "06 12 34 56 78"
    if date and not pairs and min(int(date[1]), int(date[2])) <= 12 and max(int(date[1]), int(date[2])) <= 31:
        return False  # "01.02.2023", "05 06 2023 0800"
    groups = re.findall(r"\d+", main)
    return not (len(groups) > 1 and all(_is_clock_time(g) for g in groups))


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
