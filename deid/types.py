"""Public value types of the deid library."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# The entity types deid reports, each replaced by its placeholder "[<ENTITY>]" in DeidResult.text.
# Together they cover the 18 HIPAA Safe Harbor identifiers that can occur in text (see README).
NAME: Final = "NAME"
DATE: Final = "DATE"
AGE: Final = "AGE"  # ages of 90 and over only
LOCATION: Final = "LOCATION"  # geography smaller than a state, facilities, rooms and beds
PHONE: Final = "PHONE"  # phone, fax and pager numbers
EMAIL: Final = "EMAIL"
ID: Final = "ID"  # SSN, MRN, account, plan, licence, device, vehicle and any other unique code
URL: Final = "URL"
IP: Final = "IP"

ENTITIES: Final = (NAME, DATE, AGE, LOCATION, PHONE, EMAIL, ID, URL, IP)


def placeholder(entity: str) -> str:
    return f"[{entity}]"


class DeidError(Exception):
    """De-identification failed; the text must be treated as not de-identified.

    The message never quotes the input.
    """


@dataclass(frozen=True, slots=True)
class PhiSpan:
    """One piece of PHI: offsets into the ORIGINAL text (end exclusive)."""

    start: int
    end: int
    entity: str
    score: float


@dataclass(frozen=True, slots=True)
class DeidResult:
    """The de-identified text and the spans that were replaced (sorted, non-overlapping)."""

    text: str
    spans: tuple[PhiSpan, ...]
