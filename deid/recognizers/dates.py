"""Dates: every element more specific than the year (Safe Harbor B), in clinical shapes.

Numbers that look like dates but are not ("1/2 NS", "pain 7/10", "strength 5/5", "2/6 SEM",
"3-4 days") are ruled out by context, since a lost date is a leak and a lost fraction is a
clinical error.
"""

from __future__ import annotations

import re
from datetime import date

from deid.recognizers.base import RegexRecognizer, after, before
from deid.text import Case, case_at, is_sentence_start
from deid.types import DATE

MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
# A month's name capitalised or in capitals (where "may" and "mar" could be words).
TITLED_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
# Unambiguous alone: not a verb, modal or abbreviation ("may", "march", "dec" = decreased).
MONTH_ALONE = r"(?:january|february|april|june|july|august|september|october|november|december|sept)"
DAY = r"(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)?"
# Years 1800-2999: record exports shift dates into the future to hide them ("Record date: 2104-09-02").
YEAR = r"(?:(?:1[89]|2\d)\d{2}|'?\d{2})"
CUE = (
    r"(?:on|since|from|until|till|thru|through|by|dated?|dos|dob|d\.o\.b\.?|admit(?:ted)?|adm|"
    r"d/c|dc'?d|discharged?|seen|visit|last|next|before|after|start(?:ed|ing)?|effective|as of|of|"
    r"between|and|to|-|thru|vs\.?|versus|dc|lmp|edd|edc|due|"
    # a weekday before a numeric date: "Mon 6/10", "FRI 3/8"
    r"mon|tues?|wed|thu(?:rs?)?|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
)
WEEKDAY = (
    r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?|r)?|fri(?:day)?|sat(?:urday)?"
    r"|sun(?:day)?)"
)
HOLIDAYS = (
    r"(?:christmas(?:\s+(?:eve|day))?|thanksgiving|easter|halloween|new\s+year'?s(?:\s+(?:eve|day))?"
    r"|independence\s+day|memorial\s+day|labor\s+day|valentine'?s\s+day|mother'?s\s+day"
    r"|father'?s\s+day|fourth\s+of\s+july|hanukkah|yom\s+kippur|passover|rosh\s+hashanah"
    # the public holidays of the UK, Ireland, Canada and Australia, each one day of the year
    r"|boxing\s+day|st\.?\s+patrick'?s\s+day|canada\s+day|anzac\s+day|australia\s+day"
    # the other US federal holidays
    r"|mlk\s+day|martin\s+luther\s+king(?:,?\s+jr\.?)?\s+day|presidents'?\s+day|veterans'?\s+day"
    r"|columbus\s+day|juneteenth"
    # feasts and new years of other calendars, and a new year wished for: "celebrating Tết", "HAPPY NEW YEAR"
    r"|t[eế]t|diwali|deepavali|eid(?:\s+al-[a-z]+)?|lunar\s+new\s+year|chinese\s+new\s+year|kwanzaa|nowruz"
    r"|dussehra|navratri|durga\s+puja|ramadan|nochebuena|holy\s+week|good\s+friday|ash\s+wednesday|undas"
    # days of one country or state: "Paddy's Day", "Heritage Day", "Pioneer Day", "St-Jean", "Melbourne Cup"
    # (each branch begins with a word, so that deid.prefilter tries the pattern only where one does)
    r"|st\.?\s+paddy'?s\s+day|paddy'?s\s+day|heritage\s+day|pioneer\s+day|st[-\s]jean(?:-baptiste)?|melbourne\s+cup"
    r"|valentine'?s|new\s+year)"
)
ORDINAL_NOUNS = re.compile(
    r"\s*(?:-\s*)?(?:dose|line|degree|trimester|time|day|week|month|year|cycle|round|grade|toe|finger|"
    r"digit|rib|ics|intercostal|cranial|nerve|attempt|floor|percentile|generation|sibling|child|"
    r"pregnancy|gestation|stage|order|metatarsal|metacarpal|lumbar|sacral|cervical|thoracic|vertebra|"
    r"heart|sound|fracture|episode|admission|visit|opinion|look|place|ventricle|branch|obtuse|"
    r"marginal|diagonal|postop|pod|hd)",
)
FOLLOWING_UNIT = re.compile(
    r"\s*(?:days?|d\b|wks?|weeks?|hours?|hrs?|h\b|min|minutes|months?|mos?\b|years?|yrs?|y\b|times|x\b|"
    r"mg|mcg|g\b|ml|l\b|units?|tabs?|caps?|puffs?|drops?|cm|mm|in\b|inches|%|beats|bpm|breaths|"
    r"episodes|lbs?|kg|points?|pts?\b|ppm|mmhg|meq|cc|mins|sec|seconds|per|/)"
)
SCALE_WORDS = re.compile(
    r"pain|severity|intensity|discomfort|strength|motor|power|reflex|grip|murmur|sem\b|grade|score|"
    r"scale|systolic|diastolic|out of\s*$|"
    r"\brated|flexion|extension|\bue\b|\ble\b|bilat|b/l|\bupper\b|\blower\b|\brue\b|\blue\b|\brle\b|\blle\b|"
    r"\bsm\b|holosystolic|ejection|criteria|\bhsm\b|\bdm\b|apgar|gcs|\bmmse\b|\bmoca\b|\bphq|\b[0-5]/5\b|\b[0-6]/6\b|"
    # HLA matches, cognitive screens, sleep-onset REM periods
    r"\bhla\b|mini-?cog|soremps?"
)
NUMERIC_CUE = re.compile(rf"(?:^|\W){CUE}\W*$")
# A muscle or a limb graded out of 5 right before the grade: "R ARM 1/5", "EHL 3/5", "quads 4/5".
LIMB_BEFORE = re.compile(
    r"\b(?:arm|legs?|ehl|grasp|grip|biceps|triceps|delt(?:oid)?|quads?|hamstrings?|gastroc|ta|ip|hip\s+flex\w*|"
    r"dorsiflex\w*|plantarflex\w*|hemiparesis|wrist\s+ext\w*|finger\s+ext\w*)[\s:]*$"
)
# A number after which a date reads naturally ("TSH 3/4 was 2.1", "INR 11/10 at Lawrence lab",
# "(3/30)") or after a visit word ("clinic 5/8", "f/u 3/4"): fractions and scores are not followed so.
DATE_AFTER = re.compile(
    r"\s+(?:was|were|is|showed|shows|revealed|weekend|holiday|(?-i:AM|PM|am|pm)\b|at\s+(?!\d+\s*(?:mg|ml|%)))",
    re.IGNORECASE,
)
# (a one-digit hour with its colon too: a text thread's "7/10 9:03")
TIME_AFTER = re.compile(r"\s+(?:(?:[01]\d|2[0-3]):?[0-5]\d|\d:[0-5]\d)\b(?!\s*(?:mg|ml|units?|%))")
# After a bare m/d: the end of its clause (punctuation, an opening parenthesis, a line end), where a
# fraction or a dose would have its unit or noun.
CLAUSE_END = re.compile(r"\s*(?:$|\n|[.;:,)](?!\d)|\s\(|\s[-—–]\s)")
# A value given for the date: "INR 4/8 = 2.9" (a fraction is not set equal to a number in notes).
RESULT_AFTER = re.compile(r"[ ]?=[ ]?\d")
VISIT_BEFORE = re.compile(
    r"(?:clinic|appt|appointment|f/u|follow[- ]?up|recheck|check|visit|drawn|collected|due|repeat|rpt|"
    r"booked(?:\s+for)?|scheduled(?:\s+for)?|planned(?:\s+for)?|\bed|\ber)\s*$"
)


# Before a day-first pair that is no date: visual acuity, ventilator pressures.
DM_NOT_DATE = re.compile(
    r"\b(?:va|vision|acuity|od|os|ou|snellen|bi-?pap|cpap|ipap|epap|peep|ps|psv|vent|niv|avaps|settings)\W*$"
)


# Cancer antigens are named by numbers that read like a day and a month: "CA 19-9", "CA 15-3".
TUMOUR_MARKER = re.compile(r"\bca\s?$")


class DateRecognizer(RegexRecognizer):
    ENTITY = DATE
    PATTERNS = (
        # 3/14/62, 07-22-2023, 3.14.62 and day-first 22/07/2023
        (
            "mdy",
            r"(?<![\d/.])(?:0?[1-9]|1[0-2])([/.-])(?:0?[1-9]|[12]\d|3[01])\1(?:1[89]|2\d)?\d{2}(?![\d/])",
            0.95,
        ),
        (
            "dmy",
            r"(?<![\d/.])(?:1[3-9]|2\d|3[01])([/.-])(?:0?[1-9]|1[0-2])\1(?:1[89]|2\d)?\d{2}(?![\d/])",
            0.9,
        ),
        ("iso", r"(?<!\d)(?:1[89]|2\d)\d{2}([/.-])(?:0?[1-9]|1[0-2])\1(?:0?[1-9]|[12]\d|3[01])(?!\d)", 0.95),
        ("month_year_numeric", r"(?<![\d/.])(?:0?[1-9]|1[0-2])/(?:1[89]|2\d)\d{2}(?![\d/])", 0.8),
        # a month and a two-digit year too late to be a day: "CABG in 3/80", "compared with 8/79"
        # ("/52" and "/40" are weeks, of a year and of a pregnancy: "review in 2/52", "booked at 8/40")
        (
            "month_short_year",
            r"(?<![\d/.:])(?:0?[1-9]|1[0-2])/(?!40|52)(?:3[2-9]|[4-9]\d)(?![\d/]|\.\d)",
            0.7,
        ),
        # two days a month apart or less, written as a range: "work note for 3/3-3/5"
        (
            "md_range",
            r"(?<![\d/.:])(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])\s?[-–]\s?(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?![\d/]|\.\d)",
            0.8,
        ),
        ("md_slash", r"(?<![\d/.:])(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])(?![\d/]|\.\d)", 0.8),
        # day first without a year, as the UK, Ireland, India and Nigeria write it: "booked for 21/11"
        ("dm_slash", r"(?<![\d/.:])(?:1[3-9]|2\d|3[01])/(?:0?[1-9]|1[0-2])(?![\d/]|\.\d)", 0.75),
        ("md_dash", r"(?<![\w/.:-])(?:0?[1-9]|1[0-2])-(?:0?[1-9]|[12]\d|3[01])(?![\w/]|-\d|\.\d)", 0.7),
        # "Jan 22, 2025", and a range of days in one month: "Jan 22-23, 2025"
        ("month_day", rf"\b{MONTH}\.?(?:\s*|-){DAY}\b(?:\s?[-–]\s?{DAY}\b)?(?:(?:,?\s*|[-/]){YEAR}\b)?", 0.9),
        # (not the decimals of a value before a month: "A1c 8.2 Jan 66")
        ("day_month", rf"(?<!\d[.,])\b{DAY}(?:\s+of)?[\s-]*{MONTH}\b\.?(?:(?:,?\s*|[-/]){YEAR}\b)?", 0.85),
        # a range of days of one month: "ICU 18-22 Jan", "away 3–10 March"
        ("day_range_month", rf"(?<![\d.,/-])\b{DAY}\s?[-–]\s?{DAY}\s+{MONTH}\b\.?(?:,?\s*{YEAR}\b)?", 0.85),
        # "14MAR2019", "03jan24": the compact form of lab and pharmacy systems
        ("compact", rf"\b(?:3[01]|[12]\d|0?[1-9]){MONTH}(?:1[89]|2\d)?\d{{2}}\b", 0.9),
        # a year and then its month, as some records sort them: "MoCA 18 in 2023 Oct", "in 2019 July"
        (
            "year_month_name",
            rf"(?<![\d/.-])(?:19|20)\d{{2}}\s(?-i:{TITLED_MONTH}|{TITLED_MONTH.upper()})\b\.?",
            0.75,
        ),
        # (and with a slash, as South Africa and Asia write it: "TLD since 2020/06")
        ("iso_month", r"(?<![\d/.-])(?:19|20)\d{2}([-/])(?:0[1-9]|1[0-2])(?![\d/-]|\.\d)", 0.7),
        ("month_year", rf"\b{MONTH}\.?,?[\s-]*(?:of\s+)?(?:(?:1[89]|2\d)\d{{2}}|'\d{{2}})\b", 0.85),
        # a month and a two-digit year too late to be its day: "A1c 8.2 Jan 66", "Feb 67"
        ("month_short_year_word", rf"\b{MONTH}\.?,?\s+'?(?:3[2-9]|[4-9]\d)\b(?![.,:/]\d)", 0.75),
        ("month_alone", rf"\b{MONTH_ALONE}\b", 0.6),
        # a month's abbreviation, or March or May, capitalised mid-sentence: "ABPI Nov 0.92", "eye
        # exam Feb ok", "during the March hospitalization", "since about May"
        ("month_titled", r"(?-i:\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept?|Oct|Nov|Dec|March|May)\b)\.?", 0.6),
        (
            "month_cued",
            rf"\b(?:in|since|during|early|late|mid|last|next|this|until|till|by|of|from|before|after|"
            rf"return|rtc|f/u|due|appt|appointment)[\s-]+(?P<phi>{MONTH})\b\.?",
            0.7,
        ),
        # with "early", "mid" or "late", which place the day within the month: "since mid-March"
        (
            "month_part",
            rf"\b(?P<phi>(?:early|mid|late)[\s-]+{MONTH})\b\.?",
            0.7,
        ),
        (
            "ordinal_day",
            # ("the" with it: a day's name in speech is "the 27th")
            r"(?:\b(?:on|since|from|until|till|by|of|before|after)\s+|\b(?=the\s))"
            r"(?P<phi>(?:the\s+)?(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th))\b",
            0.7,
        ),
        # a year of birth that shows an age of 90 or more must go too (Safe Harbor: "all elements of
        # dates, including year, indicative of such age"): "born 1929", "DOB: 1931", "YOB 1930"
        (
            "birth_year",
            r"\b(?:born(?:\s+in)?|dob|d\.o\.b\.?|b\.|year\s+of\s+birth|yob|birth\s+year)\s*[:#-]?\s*"
            r"(?P<phi>(?:18|19)\d\d)\b(?!['’]?s\b|[/.-]\d)",
            0.8,
        ),
        # a weekday written with its date is part of it ("Wed 11/26", "Friday the 28th", "MON 3
        # MARCH", "Monday, December 1"): redacted with it, where a weekday alone is kept
        (
            "weekday_date",
            rf"\b{WEEKDAY}\.?,?\s+(?:the\s+)?(?:(?:3[01]|[12]\d|0?[1-9])(?:st|nd|rd|th)\b"
            r"|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?(?![\d/])"
            rf"|{DAY}\s+{MONTH}\b|{MONTH}\.?\s+{DAY}\b)",
            0.8,
        ),
        ("holiday", rf"\b{HOLIDAYS}\b(?:,?\s+(?:1[89]|2\d)\d{{2}}\b)?", 0.8),
        # more day-first shapes (one pattern: each would cost a pass over the text): a pair with a
        # dash, "stroke (28-06)", since a range is not written high to low; day and month with full
        # stops, as German and Scandinavian notes write them, "Echo am 10.10."; and day, month and
        # year set apart by spaces, "died 05 06 2023"
        (
            "day_first_more",
            r"(?<![\w/.:,+-])(?:(?:1[3-9]|2\d|3[01])-(?:0?[1-9]|1[0-2])(?![\w/]|-\d|\.\d)|"
            r"(?:0[1-9]|[12]\d|3[01])\.(?:0[1-9]|1[0-2])\.(?!\d)|"
            r"(?<!\d[ -])(?:0[1-9]|[12]\d|3[01]) (?:0[1-9]|1[0-2]) (?:1[89]|2\d)\d{2}(?!\d))",
            0.7,
        ),
        # a month named in another language after its day: "3 de marzo", "14 mei 2024", "7 octobre"
        (
            "day_foreign_month",
            r"(?<![\d.,/])(?:3[01]|[12]\d|0?[1-9])\.?\s(?:de\s|d['’])?[^\W\d_]{3,}\b"
            r"(?:\s(?:de\s)?(?:1[89]|2\d)\d{2}\b)?",
            0.8,
        ),
        # months in a list: "gout flares Jan, March, May"
        ("month_list", rf"\b{MONTH}\.?(?:,\s*(?:and\s+)?{MONTH}\.?){{2,}}\b", 0.7),
        # two months as a span of time: "travel to Mirpur Dec-Jan", "(Sept-Dec)"
        ("month_pair", rf"\b{MONTH}\.?[-–]{MONTH}\b\.?", 0.7),
        ("month_range", rf"\b{MONTH}\.?\s*[-–]\s*{MONTH}\.?,?\s+(?:(?:1[89]|2\d)\d{{2}}|'\d{{2}})\b", 0.85),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        span = text[start:end]
        if pattern == "month_short_year":
            return _month_short_year_is_date(text, start, end)
        if pattern == "md_range":
            prefix = re.split(r"\.(?:\s|$)|\n", before(text, start, 25))[-1]
            return not (SCALE_WORDS.search(prefix) or FOLLOWING_UNIT.match(text[end:].lower()))
        if pattern == "md_slash":
            return _slash_is_date(span, text, start, end)
        if pattern == "md_dash":
            return _dash_is_date(span, text, start, end)
        if pattern == "dm_slash" or (pattern == "day_first_more" and "-" in span):
            return _day_first_is_date(span, text, start, end)
        if pattern == "day_foreign_month":
            month = re.findall(r"[^\W\d_]{3,}", span)[0].lower()
            return month in self.lexicon.foreign_months
        if pattern == "birth_year":
            return int(span) <= date.today().year - 90
        if pattern == "ordinal_day":
            return not ORDINAL_NOUNS.match(text, end)
        if pattern == "weekday_date":
            return _weekday_date_is_date(span, text, end)
        if pattern == "month_titled":
            # where the writer uses case and the word does not start a sentence ("May need ...")
            return (
                case_at(text, start) is Case.MIXED
                and not is_sentence_start(text, start)
                and not (span == "May" and MAY_MODAL.search(before(text, start, 12)))
                and _month_word_is_date(span, text, end)
            )
        if pattern in (
            "month_day",
            "day_month",
            "month_cued",
            "month_part",
            "month_short_year_word",
            "month_pair",
        ):
            return _month_word_is_date(span, text, end)
        return True


# "May" after its subject is the verb: "To Whom It May Concern", "Pt May Need".
MAY_MODAL = re.compile(r"\b(?:it|you|we|they|i|he|she|who|that|which|pt|patient|this|there)\s+$")


def _slash_is_date(span: str, text: str, start: int, end: int) -> bool:
    num, den = (int(p) for p in span.split("/"))
    prefix = before(text, start, 14)
    if span == "2/2" and not (
        NUMERIC_CUE.search(prefix) or TIME_AFTER.match(text, end) or CLAUSE_END.match(text, end)
    ):
        return False  # "2/2 ATN", "BCx 2/2 and", "GNR 2/2 bottles": secondary to, or two of two
    if den == 5 and LIMB_BEFORE.search(prefix):
        return False  # "R ARM 1/5", "EHL 3/5": a muscle's grade
    if text[start - 1 : start] == "(" and text[end : end + 1] == ")" and num <= 12 and den > 12:
        return True  # "HbA1c 6.1% (3/30)": the date of a result
    if re.match(r"0\d|\d+/0\d", span):
        return True  # "03/04", "11/02": fractions and scores are not written with a leading zero
    change = prefix.rstrip().endswith(("->", "→"))
    # the second of two fractions in a range is no more a date than the first: "murmur 2/6-3/6"
    fraction_range = re.search(r"\d/\d{1,2}\s?[-–]\s?$", prefix) is not None
    cued = NUMERIC_CUE.search(prefix) and not change
    if not fraction_range and (cued or DATE_AFTER.match(text, end) or VISIT_BEFORE.search(prefix)):
        return True
    # The words right before, back to the start of the sentence: "strength 5/5" but not "pain 2/10.
    # Flex sig 3/5:", whose scale word belongs to the sentence before.
    scale_before = SCALE_WORDS.search(re.split(r"\.(?:\s|$)|\n", before(text, start, 25))[-1])
    # The words right after, up to the end of the clause: "5/5 criteria" but not "4/15: T-score".
    scale_after = SCALE_WORDS.search(re.split(r"[.;:,(]", after(text, end, 20))[0])
    if not (change or scale_before or scale_after) and CLAUSE_END.match(text, end):
        return True  # "s/p ERCP 1/2 (stent ...", "Aspirate 9/10: WBC": a bare m/d ending its clause
    if TIME_AFTER.match(text, end) and not (change or scale_before or scale_after):
        return True  # with the time of day after it: "spoke 2/4 0915", "called 9/10 11:15"
    if RESULT_AFTER.match(text, end):
        return True  # a result's date with its value: "INR 4/8 = 2.9"
    if (den == 10 and num <= 10) or (den in (2, 3, 4, 8) and num < den):
        return False  # pain 7/10; 1/2 NS, 3/4 tab
    if num <= den and (scale_before or scale_after):
        return False  # strength 5/5, 2/6 SEM, Apgar 8/9
    if den > 12 and PER_SOURCE.match(text, end):
        return True  # "Last use 2/27 per client": whose word the date is, not a rate
    return not FOLLOWING_UNIT.match(text[end:].lower())


# Who or what a date was had from, after "per": no unit of a rate ("given 10/22 per MAR").
PER_SOURCE = re.compile(
    r"\s+per\s+(?:pt|patient|client|family|wife|husband|son|daughter|mom|dad|mother|father|report|chart|"
    r"records?|notes?|pcp|dr|ems|mar|orders?|protocol|policy)\b",
    re.IGNORECASE,
)


# Ratios of the same shape as a month and a two-digit year: antibody titres ("ANA 1/80"), dilutions,
# Snellen acuity ("VA 6/60"), counts of nodes or cores ("3/45 nodes"), named anywhere in the clause.
RATIO_AFTER = re.compile(
    r"\s*(?:nodes?|cores?|dilution|titer|titre|mg|mcg|g\b|ml|l\b|units?|tabs?|caps?|%|mmhg|kg|cm|mm|/)"
)
RATIO_BEFORE = re.compile(r"\b(?:titres?|titers?|ana|rf|aso|dilution|ratio|nodes?|cores?)\b")


def _month_short_year_is_date(text: str, start: int, end: int) -> bool:
    prefix = re.split(r"\.(?:\s|$)|\n", before(text, start, 25))[-1]
    if RATIO_BEFORE.search(prefix) or DM_NOT_DATE.search(prefix) or SCALE_WORDS.search(prefix):
        return False
    # what a ratio of this shape would be followed by; not FOLLOWING_UNIT, whose "per", "x" and
    # "pt" follow a date as well ("colonoscopy 4/63 per pt")
    return not RATIO_AFTER.match(text[end:].lower())


def _day_first_is_date(span: str, text: str, start: int, end: int) -> bool:
    """A day-first pair, not a visual acuity ("VA 20/10"), a score or a dose; a month written with
    its leading zero ("LMP 20/09") is a date whatever came before."""
    # the words before it in its own sentence: "no loin pain. LMP 20/09" has no scale word
    prefix = re.split(r"\.(?:\s|$)|\n", before(text, start, 20))[-1]
    if span == "24/7" or DM_NOT_DATE.search(prefix) or TUMOUR_MARKER.search(prefix):
        return False  # "care 24/7", "BiPAP 14/6", "VA 20/10", "CA 19-9"
    if SCALE_WORDS.search(prefix) and not re.search(r"[/-]0\d$", span):
        return False
    return not FOLLOWING_UNIT.match(text[end:].lower())


def _dash_is_date(span: str, text: str, start: int, end: int) -> bool:
    if FOLLOWING_UNIT.match(text[end:].lower()):
        return False  # 3-4 days, 2-3 tabs
    if re.match(r"0\d|\d+-0\d", span):
        return True  # "11-02": a range is not written with a leading zero
    prefix = before(text, start, 14)
    if re.search(r"(?:x|q|ages?|score|scale|ciwa|cows|grade|stage|rr|hr|between)\s*$", prefix):
        return False
    day = int(span.split("-")[1])
    return day > 12 or bool(NUMERIC_CUE.search(prefix) or VISIT_BEFORE.search(prefix))


def _weekday_date_is_date(span: str, text: str, end: int) -> bool:
    """A weekday's date, not a weekday's dose or count ("Mon 2nd dose", "sat 1/2 tab")."""
    if ORDINAL_NOUNS.match(text, end) or FOLLOWING_UNIT.match(text[end:].lower()):
        return False
    numbers = re.findall(r"\d+", span)
    if len(numbers) >= 2 and re.search(r"\d[/.]\d", span):
        first, second = int(numbers[0]), int(numbers[1])
        return 1 <= min(first, second) and max(first, second) <= 31 and min(first, second) <= 12
    return True


def _month_word_is_date(span: str, text: str, end: int) -> bool:
    words = re.findall(r"[A-Za-z]+", span)
    month = next((w for w in words if w.lower()[:3] in _MONTH_PREFIXES), "")
    if month.lower() in ("may", "mar", "march") and month.islower():
        # "may 2" is usually a date but "may 2 mg" or "pt may need" are not.
        if FOLLOWING_UNIT.match(text[end:].lower()):
            return False
    return not re.match(r"\s*(?:mg|mcg|ml|units?|tabs?|%)\b", text[end:].lower())


_MONTH_PREFIXES = frozenset("jan feb mar apr may jun jul aug sep oct nov dec".split())
