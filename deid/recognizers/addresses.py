"""Street addresses (Safe Harbor B) in US and international shapes: "14 Birch Lane, Apt 3", "Flat 3,
22 Acacia Avenue", "No. 12, 4th Cross", "Plot 1234, Adeola Odeku Street", PO boxes, US military mail
("PSC 0413, Box 8144, APO AA 42323"), flats and suites; then the locality, district and town that
follow an address after commas ("..., Kilburn, London"), and whatever an "Address:" label introduces.
"""

from __future__ import annotations

import re

from deid.recognizers.base import RegexRecognizer
from deid.recognizers.care_places import SPECIALTY
from deid.recognizers.name_words import NOT_NAMES
from deid.text import Case, case_at
from deid.types import LOCATION

STREET_SUFFIX = (
    r"(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|way|place|pl|terrace|ter|"
    r"parkway|pkwy|highway|hwy|circle|cir|square|sq|trail|trl|turnpike|tpke|row|path|alley|crescent|cres|"
    r"close|plaza|heights|hts|commons|green|landing|pike|run|walk|wharf|park|"
    # British, Irish and Commonwealth streets; Indian roads and neighbourhoods (marg, nagar, salai)
    r"gardens|gdns|grove|mews|rise|vale|parade|gate|wynd|croft|meadows?|quay|embankment|hill|estate|"
    r"marg|nagar|colony|layout|enclave|vihar|salai|chowk|"
    # more of Royal Mail's thoroughfare words, and the Indian "Garden": "41 Roundhay Mount"
    r"mount|chase|drove|garth|circus|garden|"
    # an expressway: "700 Lawrence Expy"
    r"expy|expressway|fwy|freeway)"
)
# Suffixes that are also ordinary words ("3 fold rise"): a street only when its words are capitalised.
WORDLIKE_SUFFIX = frozenset(
    """rise vale gate hill estate layout colony croft meadow meadows parade green run walk park row path
    mount chase drove garth circus garden""".split()
)
UNIT = r"(?:,?\s*(?:apt|apartment|unit|suite|ste|#|fl|floor|rm|room|bldg|building|flat|lot|space|trlr)\.?\s*#?\s*[A-Z0-9-]+)?"
# What comes before a house number outside the US: "No. 12", "Plot 45", "H.No. 4-1-123", "Flat 3, 22"
# (looked for behind a street's match rather than inside its regex: an optional prefix there would
# be tried at every word of every text)
HOUSE_BEFORE = re.compile(
    # (a shop's, suite's or unit's number before the house's: "Shop 3, 88 George St", "#204 - 1890 Cooper Road")
    r"(?:\b(?:(?:house|door|plot)\s+no\.?|h\.\s?no\.?|no\.?|plot|"
    r"(?:flat|apt\.?|unit|shop|suite|ste\.?|level|lot)\s+(?:no\.?\s*)?\d[\w/]{0,4},?|"
    r"flat|apt\.?|apartment|unit|suite|shop|ste\.?)\s*|(?<!\w)\#\s?\d{1,5}[A-Z]?\s+[-–]\s+"
    # (a house number, not the minutes of a time: "at 09:00, 2211 Lomas Blvd")
    r"|(?<![\d:.])\b\d{1,6}[A-Z]?,?\s+(?:[NSEW]\.?\s+)?)$",
    re.IGNORECASE,
)
# The parts of an address after its street, each after a comma or alone on its line: a locality,
# district or town written with capitals ("..., Kilburn, London"), up to a postcode or the end.
NEXT_PART = re.compile(
    r"(?:,[ \t]*|[ \t]*\n[ \t]*)(?P<part>(?:[A-Z][\w'’-]*|\d{1,2}(?:st|nd|rd|th))(?:[ \t]+[A-Z][\w'’-]*){0,2})"
    r"(?=[ \t]*(?:[,\n.;)]|$|[ \t]+[A-Z0-9]{2,4}[ \t-]?[A-Z0-9]{2,4}\b))"
)
# The endings of one-word street names in northern and central Europe (checked after a cheap match).
COMPOUND_STREET = (
    "gade vej gata gatan veien vegen straße strasse str. weg laan straat katu tie kuja utca allee platz "
    "ring gasse dijk kade plein vägen väg torget iela ulica"
).split()
# The kind of a street written as a word of its own after its name: "Ismaninger Str. 22", "Berliner Allee 5"
STREET_KIND_APART = (
    r"(?:Str\.|Straße|Strasse|Weg|Allee|Platz|Gasse|Ring|Damm|Ufer|Laan|Straat|Plein|Gracht|Kade|Vej|Gade|"
    r"Gatan|Vägen)"
)
# These patterns find the street (or box) of an address; what follows it is read as the rest of it.
ADDRESS_STARTS = frozenset(
    {
        "street",
        "po_box",
        "unit",
        "house",
        "numbered_street",
        "street_name",
        "street_name_st",
        "kind_first",
        "compound_street",
        "county_road",
    }
)


ST_SEGMENT = re.compile(r"\s*-?(?i:elevations?|depressions?|changes?|segments?|waves?|abnormalit)")
# A weekday or a month before "St" is no street: "on Monday St. Luke's called".
CALENDAR_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may june
    july august september october november december""".split()
)


class StreetAddressRecognizer(RegexRecognizer):
    ENTITY = LOCATION
    PATTERNS = (
        (
            "street",
            # (its words on one line, a space or two apart: not "RUN TIME: 0622      DISCHARGE
            # SUMMARY\nRUN", a form's fields that end in a street word)
            rf"(?<![\d/.,:-])\b\d{{1,6}}[A-Z]?(?:[/-]\d{{1,4}}[A-Z]?){{0,2}},?[ \t]{{1,2}}"
            rf"(?:(?:N|S|E|W|NE|NW|SE|SW|north|south|east|west)\.?[ \t]{{1,2}})?"
            rf"(?:[A-Z0-9][\w'-]*\.?[ \t]{{1,2}}){{1,3}}{STREET_SUFFIX}\b\.?"
            # its quarter after it: "2800 10th Ave N", "2211 Lomas Blvd NE", "1 Main St East"
            rf"(?-i:\s(?:East|West|North|South|N|S|E|W|NE|NW|SE|SW)\b(?![.'’]\w|\.\s?[a-z]))?{UNIT}",
            0.85,
        ),
        # a county road, named by its number: "4410 Co Rd 12, Lot 7"
        (
            "county_road",
            rf"(?<![\d/.,:-])\b\d{{1,6}}\s+(?:co\.?\s+rd\.?|county\s+road)\s+\d{{1,4}}[A-Z]?\b{UNIT}",
            0.85,
        ),
        # a street named without its number, after a place preposition: "the CVS on River St"
        (
            "street_unnumbered",
            r"\b(?:on|off|at|near)\s+(?P<phi>(?-i:(?:[NSEW]\.?\s)?(?:[A-Z][a-z]+|\d{1,3}(?:st|nd|rd|th))(?:\s[A-Z][a-z]+)?"
            r"\s(?:St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Ln|Lane|Hwy|Highway|Pkwy|Parkway)\b\.?"
            r"(?:\s(?:N|S|E|W|NE|NW|SE|SW)\b(?![.'’]\w|\.\s?[a-z]))?))",
            0.7,
        ),
        # the same in a lower-case note: "lives in the ironbound on ferry st", "bakery on marconi ave"
        (
            "street_unnumbered_lower",
            r"\b(?:on|off|near)\s+(?P<phi>(?-i:[a-z]{3,}(?:\s[a-z]{3,})?\s(?:st|ave|rd|blvd|street|avenue|road)))\b",
            0.6,
        ),
        # a numbered street so, in any case: the ordinal is its name, not a day ("walgreens on 5th st")
        (
            "ordinal_street",
            r"\b(?:on|off|near)\s+(?P<phi>\d{1,3}(?:st|nd|rd|th)\s(?:st|ave|rd|blvd|street|avenue|road)\.?)(?!\w)",
            0.8,
        ),
        # the streets named without a street word: "140 Broadway", "4554 N Broadway", "801 Broadway
        # N", "12 The Esplanade"
        (
            "unsuffixed_street",
            r"(?<![\d/.,:-])\b\d{1,6}[A-Z]?\s+(?-i:(?:[NSEW]\.?\s)?(?:Broadway|BROADWAY)(?:\s[NSEW]\b(?![.'’]\w))?"
            r"|The\s+[A-Z][a-z]+)\b",
            0.8,
        ),
        # a quarter's street without a street word, as western US cities write them, or a grid's
        # coordinates: "3200 W Camelback", "740 S Limestone", "1525 W 2100 S" (Salt Lake City)
        (
            "quarter_street",
            r"(?<![\d/.,:-])\b\d{3,6}\s(?-i:[NSEW])\.?\s(?:\d{2,5}\s(?-i:[NSEW])\b|(?-i:[A-Z][a-z]{3,}))\b(?![-'’])",
            0.7,
        ),
        # with its post office's code after a dash, as Kenya writes it: "P.O. Box 123-00100"
        # and a US rural route or highway contract box (USPS Publication 28): "RR 2 BOX 118"
        (
            "po_box",
            r"\b(?:(?:p\.?\s?o\.?|post\s+office)\s+box\s+\d+(?:-\d{5})?|"
            r"(?:rr|hc|rural\s+route|highway\s+contract(?:\s+route)?)\s*#?\s*\d{1,3},?\s+box\s+\d{1,5})\b",
            0.9,
        ),
        # a house number announced as one, before the street: "No. 12, 4th Cross", "H.No. 4-1-123,"
        (
            "house",
            r"\b(?:(?:house|door|plot)\s+no|h\.\s?no|no)\.?\s*\d{1,5}[A-Z]?(?:[/-]\d{1,4}[A-Z]?){0,2}"
            r"(?=,\s*(?:\d{1,2}(?:st|nd|rd|th)\s|[A-Z][\w'-]+\s+(?:[A-Z][\w'-]+\s+)?"
            + STREET_SUFFIX
            + r"\b))",
            0.75,
        ),
        # US military mail: "PSC 0413, Box 8144, APO AA 42323", "Unit 4719 Box 7394 DPO AP 70942",
        # "USNS Harris, FPO AE 12345"
        (
            "military",
            r"\b(?:(?:psc|cmr|unit)\s+\d{3,5},?\s+box\s+\d{3,5}|us[ns]s?v?\s+[a-z]+(?:\s[a-z]+)?)"
            r",?\s+(?:apo|dpo|fpo)\s+a[aep]\b(?:\s+\d{5})?",
            0.9,
        ),
        # a flat, suite or plot with its number: "Flat 3B", "Apt. 864", "Suite 282", "Plot 45"
        (
            "unit",
            r"\b(?:apt|apartment|suite|ste|flat|plot)\.?\s*#?\s*\d{1,5}[A-Z]?(?![\w/:.-]|\.\d)",
            0.7,
        ),
        # Bengaluru's numbered streets and Indian sectors: "4th Cross", "3rd Main Road", "Sector 21"
        (
            "numbered_street",
            r"(?-i:\b\d{1,2}(?:st|nd|rd|th)\s+(?:Cross|Main|CROSS|MAIN)(?:\s+(?:Road|Rd|ROAD|RD))?\b|"
            r"\b(?:Sector|SECTOR)\s+\d{1,3}[A-Z]?\b)",
            0.7,
        ),
        # the street's kind before its name, as in French (Quebec), Spanish, Portuguese and Italian:
        # "1234, rue Sainte-Catherine Ouest", "Via Franscini 71", "Rua do Arenque 1634"
        (
            "kind_first",
            r"\b(?-i:rue|Rue|RUE|Via|Viale|Calle|Camino|Paseo|Avenida|Avda\.|Rua|Piazza|Largo|"
            r"Carrer|Strada|chemin|Chemin|boulevard|boul\.|Boul\.|rang|Rang)\s+"
            r"(?:(?-i:de|du|des|la|le|del|do|da|dos|das|dei|della|di)\s+|[ld]['’]\s?)*"
            r"(?-i:[A-Z][\w'’-]*)(?:[ -](?-i:[A-Z][\w'’-]*|Ouest|Est|Nord|Sud)){0,3}(?:,?\s+\d{1,5}[A-Z]?\b)?",
            0.75,
        ),
        # a street named by a one-word compound with its number after it, as in northern and central
        # Europe: "Hauptstraße 12", "Søndergade 52", "Harjukuja 54", "Populierenstraat 374"; or by
        # two words, its kind written apart, as German and Dutch also do: "Ismaninger Str. 22"
        (
            "compound_street",
            rf"(?-i:\b[A-ZÀ-Þ][^\W\d_]+(?:\s{STREET_KIND_APART})?\s\d{{1,5}}[a-zA-Z]?\b)",
            0.75,
        ),
        # numbered roads: "on Route 27", "I-93", "Hwy 1"
        (
            "route",
            r"\b(?:route|rte\.?|(?-i:RT)|highway|hwy|interstate|(?-i:I-))\s?\d{1,3}(?-i:[A-Z])?\b(?![.:/]\d)",
            0.75,
        ),
        # a street named without its number: "BMP at Quest on Winthrop Ave"
        (
            "street_name",
            r"(?-i:\b(?:[NSEW]\.?\s)?(?:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?|\d{1,3}(?:st|nd|rd|th))\s"
            r"(?:Street|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|"
            r"Parkway|Pkwy|Highway|Hwy|Turnpike|Terrace|Freeway|Fwy|Motorway|Expressway)\b\.?"
            # and in capitals, as nursing notes write it: "PHARMACY ON ALBEMARLE RD", "MONASH FWY"
            r"|\b[A-Z]{3,}(?:\s[A-Z]{3,})?\s(?:STREET|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|LANE|PARKWAY|"
            r"PKWY|HIGHWAY|HWY|FREEWAY|FWY|MOTORWAY)\b)",
            0.7,
        ),
        # "St" as a street only where a saint's name cannot follow: "pharmacy CVS Main St, Reading MA"
        (
            "street_name_st",
            r"(?-i:\b(?:[NSEW]\.?\s)?(?:[A-Z][a-z]+(?:\s[A-Z][a-z]+)?|\d{1,3}(?:st|nd|rd|th))\sSt\b\.?"
            r"(?=\s*[,;)]|\s*$))",
            0.7,
        ),
        # a numbered street by its quarter alone after a place preposition: "Drug Mart on E 55th"
        ("quarter_ordinal", r"\b(?:on|off|near)\s+(?P<phi>(?-i:[NSEW]\.?\s\d{1,3}(?:st|nd|rd|th)))\b", 0.7),
        # a US, state, county or farm road after a place preposition, or with a house number:
        # "accident on CR 466", "up Lotts Creek off KY-80", "3800 US-431"
        (
            "state_route",
            r"(?:\b(?:on|off|along|near|via)\s+|(?<![\d:.,/])\b(?=\d{1,6}[ ][A-Z]))"
            r"(?P<phi>(?:\d{1,6}[ ])?(?-i:(?:US|SR|CR|FM|SH|[A-Z]{2})[- ]\d{2,4}))\b(?![.:/,+]\d)",
            0.7,
        ),
    )

    def extend(self, text: str, start: int, end: int, pattern: str) -> tuple[int, int]:
        """The house or flat before a street, and the locality and town after it."""
        if pattern in ("street", "kind_first"):
            start = self._house_start(text, start)
        if pattern in ADDRESS_STARTS:
            end = self._rest_of_address(text, end)
        return start, end

    def _house_start(self, text: str, start: int) -> int:
        """Where an address begins whose street starts at `start`: "No. 12 ", "Flat 3, ", "1234, rue"."""
        house = HOUSE_BEFORE.search(text, max(0, start - 20), start)
        return house.start() if house else start

    def _rest_of_address(self, text: str, end: int) -> int:
        """The end of the address whose street ends at `end`: up to three more parts."""
        for _ in range(3):
            part = NEXT_PART.match(text, end)
            if part is None or not self._is_place_part(part["part"]):
                break
            end = part.end("part")
            state = re.search(r"[ \t]+(?P<state>[A-Z]{2})$", part["part"])
            if state and state["state"] in self.lexicon.state_abbrevs:
                return part.start("part") + state.start()  # "HAZARD KY": the town, not its state

        return end

    def _is_place_part(self, part: str) -> bool:
        words = part.split()
        if self.lexicon.is_place_word(part) or part.upper() in self.lexicon.state_abbrevs:
            return False  # a state, province or country: Safe Harbor keeps it
        return not any(
            w.lower() in NOT_NAMES or self.lexicon.is_clinical_term(w) or w.lower() in _NOT_PLACE_PARTS
            for w in words
        )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if ST_SEGMENT.match(text, end) and re.search(r"\bst\.?$", text[start:end], re.IGNORECASE):
            return False  # "1 mm ST elevation": an ECG's ST segment, not a street
        if pattern == "state_route":
            kind = text[start:end].lstrip("0123456789 ")[:2]  # a state's road ("KY-80"), not "IL-6"
            return kind in ("US", "SR", "CR", "FM", "SH") or (
                kind in self.lexicon.state_abbrevs
                and kind not in ("IL", "CA", "GA", "MS", "MD", "PA", "OR", "ME")
            )
        if pattern in ("street_unnumbered", "street_unnumbered_lower"):
            first = text[start:end].split()[0].lower()
            if pattern == "street_unnumbered_lower" and (
                self.lexicon.is_clinical(first) or case_at(text, start) is not Case.LOWER
            ):
                return False  # "on the rd", "on iv abx st": a lower-case note's words, not a street
            return first not in CALENDAR_WORDS and first not in NOT_NAMES
        if pattern == "unit":
            # "flat 3 days", "T waves flat 3 leads": a flat's number is followed by the address
            follows = text[end : end + 20]
            if re.match(
                r"\s*(?:x\s*)?(?:days?|wks?|weeks?|h|hrs?|hours?|mg|ml|units?|times)\b", follows.lower()
            ):
                return False
            word = text[start:end].lower()
            return not word.startswith(("flat", "plot")) or bool(
                re.match(r"\s*(?:[,\n]|$|[A-Z0-9])", follows)
            )
        if pattern == "quarter_street":
            # the street's name is a proper word, not a clinical one: "400 S Medicine" is a unit
            word = text[start:end].split()[-1].lower()
            return word.isdigit() or not (
                self.lexicon.is_clinical(word) or word in NOT_NAMES or SPECIALTY.search(word)
            )
        if pattern == "street_name_st":
            # "Tums St,": a drug given stat, not a street
            return not any(self.lexicon.is_clinical_term(w) for w in text[start:end].split()[:-1])
        if pattern == "street_name" and text[start:end].isupper():
            # "ALBEMARLE RD", not "ON THE ROAD" or "IV HEP LOCK RD": its name words are proper words
            name = [w.lower() for w in text[start:end].split()[:-1]]
            lex = self.lexicon
            if any(w in NOT_NAMES or lex.is_clinical(w) for w in name):
                return False
            return all(lex.zipf(w) < 4.0 or lex.is_census_name(w) or lex.is_town(w) for w in name)
        if pattern == "compound_street":
            words = text[start:end].split()
            return len(words) == 3 or words[0].lower().endswith(tuple(COMPOUND_STREET))
        if pattern == "kind_first":
            # "Via IV", "Rue 3": the street's name is a proper word, not an abbreviation or a number
            name = re.findall(r"[^\W\d_]+", text[start:end])[1:]
            return bool(name) and not any(w.isupper() or self.lexicon.is_clinical_term(w) for w in name)
        if pattern != "street":
            return True
        match = text[start:end]
        words = re.findall(
            r"[A-Za-z]+",
            re.sub(r"^\W*(?:house|door|plot|h\.\s?no|no|flat|apt|unit)\b\.?", "", match, flags=re.I),
        )
        suffix = re.search(rf"\b{STREET_SUFFIX}\b\.?(?={UNIT}$)", match, re.IGNORECASE)
        if suffix and suffix.group().lower().rstrip(".") in WORDLIKE_SUFFIX and match.islower():
            return False  # "3 fold rise", "2 flights uphill": ordinary words in lower case
        # "2 tabs po dr" or "40 mg iv push st" are orders: a street name is not a clinical word. A
        # lower-case word of the ICD list only ("quarry", "orchard", "grand") is a street's where
        # an address is expected ("home, 88 quarry ln", "fell at 19 orchard ct").
        name_words = words[:-1] if len(words) > 1 else words
        if len(name_words) > 1 and name_words[0] in COMPASS:
            name_words = name_words[1:]  # "3385 SW Whiteside Dr": a quarter, not the social worker
        addressed = bool(ADDRESS_EXPECTED.search(text, max(0, start - 24), start))
        return not any(
            w.lower() in NOT_NAMES
            or w.lower() in _MEASURES
            or self.lexicon.is_clinical_term(w)
            or (w.islower() and self.lexicon.is_clinical(w) and w.lower() not in _STREETISH and not addressed)
            for w in name_words
        )


COMPASS = frozenset("N S E W NE NW SE SW".split())
# What comes before a house number where an address is expected: a place's preposition, a verb of
# living, an address label, or the comma after a place or a field.
ADDRESS_EXPECTED = re.compile(
    r"(?:\b(?:at|on|to|from|lives|living|resides|address|addr|home)\b\s*:?|,)\s*$", re.IGNORECASE
)
_MEASURES = frozenset("mm cm mg mcg ml kg mmhg meq mmol iu cc".split())  # "at 5 mm ct": a size
_STREETISH = frozenset(
    "main oak elm pine maple cedar birch park lake hill high church school mill spring".split()
)
# Words that start what follows an address rather than continue it ("..., Tel 0161...", "..., DOB").
_NOT_PLACE_PARTS = frozenset("tel phone mobile mob fax email dob nhs mrn dear re ref".split())


class AddressLabelRecognizer(RegexRecognizer):
    """The address after an "Address:" label, to the end of its line or the next label."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "address_label",
            r"(?:^|[\n;|]|\s{2}|[.,]\s)[ \t]*(?:(?:home|postal|permanent|current|residential|correspondence|new|billing|"
            r"mailing|patient'?s?)\s+)?(?:address|addr\.?)[ \t]*(?:[:\-]|is)[ \t]*"
            # up to the end of its line or field, or a full stop after a word ("..., New Delhi. CGHS")
            r"(?P<phi>[^\n:;|]{4,120}?)(?=[ \t]*(?:$|\n|;|\||\s{2}|(?<=\w{4})\.\s|[,.]?\s+(?:tel|phone|mob|fax|email|dob|nhs)\b))",
            0.75,
        ),
    )
    FLAGS = re.IGNORECASE | re.MULTILINE

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        # "Address: concerns re falls" is a plan: an address has a number or a capitalised place word.
        value = text[start:end]
        return bool(re.search(r"\d", value)) and bool(re.search(r"\b[A-Z][a-z]+\b|\b[A-Z]{3,}\b", value))
