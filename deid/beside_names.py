"""What sign-outs and lists write right after a found name: the room the patient is in ("bill in
302", "jade in 8", "1. hart 302 — cellulitis") and an age of 90 or over in brackets or between
commas ("penny wise (93) bed 11", "vera pedersen (96) asking"), found from the names the rule
recognizers found, in any letter case."""

from __future__ import annotations

import re
from collections.abc import Sequence

from presidio_analyzer import RecognizerResult

from deid.recognizers.ages import OLD
from deid.recognizers.wards import NOT_A_COUNT
from deid.types import AGE, LOCATION, NAME

# After a name: "in" and a room ("bill in 302", "jade in 8", "king in 4b"), or a three-digit room and
# a dash, a colon or an age and sex, as a sign-out list writes a bed ("hart 302 — cellulitis",
# "Kowalczyk, Bernard 817 94M"). Not a year or a time.
ROOM_AFTER_NAME = re.compile(
    rf"[ ]in[ ](?:rm\.?[ ]|room[ ]|bed[ ])?(?P<in>(?!19\d\d|20\d\d)\d{{1,4}}[a-eA-E]?)\b{NOT_A_COUNT}"
    r"(?![ ]?(?:s|am|pm|weeks?|wks?|months?|mos?|years?|yrs?|[dhwmy])\b|[ ]?[-–]|,\d)"
    r"|[ ](?P<listed>[1-9]\d{2,3}[a-eA-E]?)(?=[ ]?[—–:-][ ]|[ ]\d{1,3}[ ]?[MFmf]\b)",
)
# After a name: an age of 90 or over in brackets or set off by commas ("(93)", "(93, has PD)", ", 96,").
AGE_AFTER_NAME = re.compile(
    rf"[ ]?(?:\((?P<bracketed>{OLD})(?=[),;])|,[ ](?P<listed>{OLD})(?=,[ ]|[ ]?[;)]))"
)


def rooms_after_names(text: str, results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """LOCATION results for the room numbers written right after a found name."""
    return _after_names(text, results, ROOM_AFTER_NAME, LOCATION)


def ages_after_names(text: str, results: Sequence[RecognizerResult]) -> list[RecognizerResult]:
    """AGE results for the ages of 90 and over written right after a found name."""
    return _after_names(text, results, AGE_AFTER_NAME, AGE)


def _after_names(
    text: str, results: Sequence[RecognizerResult], pattern: re.Pattern[str], entity: str
) -> list[RecognizerResult]:
    out: list[RecognizerResult] = []
    for r in results:
        if r.entity_type == NAME and (found := pattern.match(text, r.end)):
            group = next(name for name, value in found.groupdict().items() if value)
            out.append(RecognizerResult(entity, found.start(group), found.end(group), 0.6))
    return out
