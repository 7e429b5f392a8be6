"""Places inside a hospital or home (Safe Harbor B): wards and buildings named after a person or a
tree ("Shapiro 5", "Cedar Ward"), units by floor and side ("4 East", "8 Tower"), and the numbers of
rooms, beds, bays, theatres and stations ("bed 14", "Theatre 4", "chambre 412", "NSICU 8").
"""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer, before
from deid.recognizers.facilities import GENERIC
from deid.recognizers.name_words import NOT_NAMES
from deid.text import Case, case_at
from deid.types import LOCATION

# After a place's number, what would make it a count or a measure: "unit 2 of 3" (of blood), "ICU 2 days"
NOT_A_COUNT = r"(?![\w.:/]\d|\s?(?:mg|ml|kg|cm|mm|%|min|hours?|hrs?|days?|units?|x|of)\b)"


class RoomBedRecognizer(RegexRecognizer):
    """The number of a room, bed, bay, unit, floor, theatre or station, and of a room where a patient
    is ("pt in 422", "moved to 422")."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "room",
            # (a labour room too: "LDR 5 GARDNER", "LDRP 12")
            r"\b(?:room|rm|bed|bay|bldg|building|ward|suite|ste|apt|apartment|cubicle|stretcher|"
            r"chair|isolette|incubator|crib|cot|warmer|trolley|bedspace|homeroom|(?-i:LDRP?|Ldr))"
            r"\s*(?:no\.?|number|#)?\s*[:#]?\s*"
            # (and a unit's code before the bed's: "bed TSICU-14", "Bed: AMU-B3-04", "RM 7-NICU-09")
            r"(?P<phi>\d{1,5}[A-Z]?(?:-?[A-Z0-9]{1,3})?|[A-Z]{1,2}\d{0,2}-\d{1,4}|[A-Z]\d{1,4}|\d{1,2}\s?[NSEW]\b|"
            r"(?-i:[A-Z]{2,6}-[A-Z]?\d{1,3}(?:-\d{1,3})?|\d{1,2}-[A-Z]{1,5}-\d{1,3}))"
            r"(?![\w.]\d|\s?(?:mg|ml|kg|cm|mm|%|min|hours?|hrs?|days?)\b)",
            0.75,
        ),
        # a nursery's or a jail's pod by its letter code ("Bed Pod C-14", "Pod 4B"); not "POD 2", the
        # day after an operation
        ("pod", r"\b(?-i:Pod|POD)\s+(?P<phi>(?-i:[A-Z]-?\d{1,3}|\d[A-Z]))\b(?!-\d)", 0.7),
        # rooms and beds listed: "Infants to NICU beds 9 and 10", "rooms 412, 414"
        (
            "rooms",
            r"\b(?:beds|rooms|rms)\s*#?\s*(?P<phi>\d{1,4}[A-Z]?(?:(?:\s*,\s*|\s+(?:and|&|or)\s+)\d{1,4}[A-Z]?)+)"
            r"(?![\w.]\d|\s?(?:mg|ml|kg|cm|mm|%|min|hours?|hrs?|days?)\b)",
            0.7,
        ),
        # a room by its building and number: "Rm Ellison 1142", "room Bigelow 11-40"
        (
            "building_room",
            r"\b(?:room|rm)\s+(?P<phi>(?-i:[A-Z][a-z]+|[A-Z]{3,})\s\d{1,4}(?:-?\d{1,3})?[A-Z]?)\b",
            0.7,
        ),
        # a bed by its unit and number, as sign-out lists write it: "1) 7B-14 HALVORSEN", "6c-22 mrs. a"
        ("unit_bed", r"(?<![\w/.:-])(?P<phi>\d{1,2}[A-Za-z]{1,2}-\d{1,3}[A-Za-z]?)(?![\w/-]|\.\d)", 0.65),
        # an operating room by its number, where a patient goes or comes from: "ARRIVED FROM OR 6"
        (
            "theatre",
            r"\b(?:from|to|in|into|back\s+to)\s+(?-i:OR|THEATRE|Theatre)\s?#?\s?(?P<phi>\d{1,2})\b(?![.:/]\d)",
            0.7,
        ),
        # a room number after the patient it holds or who moved there: "pt in 422", "can u see
        # rodriguez in 1412", "her roommate in 418", "moved to 422", "89yo in 417", "mr bill king in 4b"
        (
            "patient_in_room",
            r"\b(?:pt|patient|see\s+[a-z'-]+|roommate|moved|transferred|\d{1,3}\s?(?:yo|y/o|y\.o\.|[mf])|"
            r"(?:mr|mrs|ms|miss)\.?\s+[a-z'-]+(?:\s+[a-z'-]+)?)\s+(?:in|to)\s+(?:rm\s+)?"
            r"(?P<phi>(?!19\d\d|20\d\d)\d{3,4}[a-z]?|\d{1,2}[a-e])\b(?![.:/]\d)",
            0.65,
        ),
        # an operating room by its number in mixed-case text, where "OR" in capitals is never the
        # conjunction: "Location: VGH OR 22", "Date of Surgery: 04/02/2024   OR 14"
        (
            "or_number",
            r"(?-i:(?<!\d[ ])(?<![A-Za-z/\d])OR)[ ]?#?[ ]?(?P<phi>\d{1,2})\b(?![.:/,]\d|[ ]?(?:%|x\b|or\b|-\d))",
            0.65,
        ),
        # the other numbered places of a hospital, in English and as French, Spanish, German, Dutch,
        # Portuguese and Italian notes name them: "Unit 8A", "Floor 21", "station 14", "Theatre 4",
        # "Cath Lab 2", "resus 2", "chambre 412", "consultorio 512"
        (
            "numbered_place",
            r"\b(?:unit|floor|flr|station|theatre|theater|cath(?:eter(?:isation|ization)?)?\s+lab|resus|"
            r"chambre|habitaci[oó]n|consultorio|zimmer|kamer|quarto|stanza)\s*(?:no\.?|#)?\s*[:#]?\s*"
            rf"(?P<phi>\d{{1,3}}[A-Z]?)\b{NOT_A_COUNT}",
            0.65,
        ),
        # an intensive care unit's bed by its number: "NSICU 8", "Thoracic ICU 4141" (not "ICU 0400")
        (
            "icu_number",
            rf"(?-i:\b(?:[A-Z]{{0,4}}ICU|[a-z]{{0,4}}icu|CCU|HDU|ITU|PACU)\s?(?:bed\s?)?#?(?P<phi>\d{{1,4}}[A-Z]?))\b"
            rf"{NOT_A_COUNT}",
            0.6,
        ),
        # the bed of a shared room, or a unit's pod, by its letter: "room 14, bed B", "ICU POD C"
        ("bed_letter", r"\b(?:bed\s*[:#]?\s*|pod\s+)(?P<phi>(?-i:[A-H]))(?![\w'’-])", 0.7),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        if pattern == "unit_bed":
            return _bed_code(text, start, end)
        if pattern == "or_number":
            return case_at(text, start) is Case.MIXED
        # "TO ICU 0400 BED 12": a time of day, not a bed
        return not (pattern == "icu_number" and re.fullmatch(r"(?:[01]\d|2[0-3])[0-5]\d", text[start:end]))


DOSE_AFTER = re.compile(r"\s*(?i:mcg|mg|ml|g|units?|u\b|mmol|meq|%|l/min|lpm|mcg/kg)")


def _bed_code(text: str, start: int, end: int) -> bool:
    """A unit's bed ("7B-14"), not a range or a time ("70S-80S", "1x-2 tabs", "7a-7p", "CKD 3b-4")."""
    letters = re.match(r"\d+([A-Za-z]+)", text[start:end])
    if letters is None or letters.group(1).lower() in ("s", "x", "a", "p", "am", "pm"):
        return False
    if re.search(r"(?i:stage|ckd|grade|class|type|gold)\W*$", text[max(0, start - 12) : start]):
        return False
    return not re.match(r"\s*(?i:mg|mcg|ml|units?|min|hrs?|hours?|days?|weeks?|tabs?|times)", text[end:])


class WardRecognizer(RegexRecognizer):
    """A ward or building named after a person, with its floor: "Shapiro 5", "Yawkey 2B", "Lunder 6"."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        ("ward", r"\b(?P<phi>[A-Z][a-z]+(?:[ -][A-Z][a-z]+)?\s\d{1,2}[A-Z]?)\b(?![\d./:%+-])", 0.65),
        ("caps_ward", r"\b(?P<phi>[A-Z]{4,}\s\d{1,2}[A-Z]?)\b(?![\d./:%+-])", 0.6),
        # the floor written first, with a room or bed after: "5 Blake, rm 5122"
        ("floor_ward", r"(?<![\d/.:-])(?P<phi>\d{1,2}\s[A-Z][a-z]{2,})\b(?=\s*,?\s*(?i:rm|room|bed)\b)", 0.6),
        # a ward named for a tree, a benefactor or a saint: "Cedar Ward", "CEDAR WARD", "Nightingale Unit"
        ("named_ward", r"\b(?P<phi>(?:[A-Z][a-z]+|[A-Z]{3,})\s(?:Ward|WARD|Wing|WING))\b", 0.65),
        # a unit by its floor and side or tower: "4 East", "7 NORTH", "bed 18 on 4 north", "8 Tower"
        (
            "floor_side",
            r"(?<![\d/.-])(?P<phi>\d{1,2}\s?(?:East|West|North|South|Tower|EAST|WEST|NORTH|SOUTH|TOWER|"
            r"east|west|north|south|tower))\b(?!\s+(?i:st|street|ave|rd|road)\b)",
            0.6,
        ),
    )
    PLACE_BEFORE = re.compile(
        r"(?:clinic|center|centre|hospital|hosp|room\s+\w+|unit|ward|floor|building|bldg|tower|wing|pavilion|"
        r"campus|station|transferred\s+to|transfer\s+to|moved\s+to|admitted\s+to|located\s+(?:at|on|in)|from)\W*$"
    )
    UNIT_AFTER = re.compile(
        r"\s*(?:,\s*)?(?:neuro|icu|micu|sicu|ccu|cvicu|unit|floor|ward|step-?down|tele|pacu|rm|room|bed)\b",
        re.IGNORECASE,
    )
    NOT_WARDS = frozenset(
        """grade stage type class level phase day week cycle bed room pod hd zone lead part step dose
        round visit cohort arm group page table figure appendix section item score total""".split()
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        words = re.findall(r"[A-Za-z]+", text[start:end])
        lex = self.lexicon
        if pattern == "floor_side":
            return True
        if pattern == "named_ward":
            low = words[0].lower()
            # "Cedar Ward" names a place; "Stroke Unit", "Medical Ward", "the Ward" describe one
            return not (low in GENERIC or low in NOT_NAMES or lex.is_clinical(low) or lex.zipf(low) >= 4.5)
        if DOSE_AFTER.match(text, end):
            return False  # "ON LEVO 4 MCG": a drug's dose, not a ward
        if pattern == "caps_ward":
            # in capitals only a rare word or a surname, with a room or bed after or a move before:
            # "BLAKE 7 BED 12", "TRANSFERRED TO WHITE 9"; not "LEVO 4", "DAY 2"
            name = words[0].lower()
            if lex.zipf(name) >= 4.0 and not lex.is_census_name(name):
                return False
            context = before(text, start, 40)
            if not (
                self.UNIT_AFTER.match(text, end)
                or self.PLACE_BEFORE.search(context)
                or re.search(r"\b(?:on|bed)\s$", context)
            ):
                return False
        for w in words:
            low = w.lower()
            if low in self.NOT_WARDS or low in NOT_NAMES or lex.is_clinical(low) or low in lex.eponyms:
                return False
            if low in _MONTHS_AND_DAYS:
                return False  # "March 5", "Monday 2": dates
        context = before(text, start, 40)
        if self.PLACE_BEFORE.search(context) or self.UNIT_AFTER.match(text, end) or pattern == "floor_ward":
            return True
        # a nurse "on Ellison 12", a bed "Blake 7": a surname's building, not a drug's dose ("on Lasix 40")
        name = words[0].lower()
        return bool(
            re.search(r"\b(?:on|bed)\s$", context) and lex.is_census_name(name) and lex.zipf(name) < 4.5
        )


_MONTHS_AND_DAYS = frozenset(
    """jan january feb february mar march apr april may jun june jul july aug august sep sept september
    oct october nov november dec december mon monday tue tues tuesday wed wednesday thu thur thurs
    thursday fri friday sat saturday sun sunday""".split()
)
