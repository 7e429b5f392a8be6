"""Named places of care, work and school (Safe Harbor B): hospitals, clinics and practices, labs,
pharmacies, schools and employers (the wards and buildings inside a hospital are in wards.py).

A facility is found from its head word ("Lakeside Cardiology", "CALVERT HOSP", "Taunton High
School"), from a label that says a place follows ("Pharmacy: Walgreens"), or, for hospital-style
acronyms, from a place cue ("transferred from GH"). The name must have a word of its own: "Stroke
clinic" and "the outside hospital" name no place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.prefilter import Scanner
from deid.recognizers.base import LexiconRecognizer, RegexRecognizer
from deid.recognizers.identifiers import LABEL as ID_LABEL_WORDS
from deid.recognizers.name_words import FAMILY, NOT_NAMES, role_word
from deid.text import Case, Token, case_at, is_sentence_start, is_wrap, tokenize
from deid.types import LOCATION

# A British general practice named after its street: "Station Road Surgery", "Park Lane Surgery".
STREET_SURGERY_NAME = r"(?:Road|Street|Lane|Avenue|Hill|Green|Park|Square|House|Way|Drive|Close)\s+Surgery"
# Ordinals that begin the names of churches and banks: "First Baptist Church", "Second Presbyterian".
ORDINAL_NAME_WORDS = frozenset({"First", "Second", "Third", "FIRST", "SECOND", "THIRD"})
# The labels of identifiers ("Acct", "Accession"), which a record number follows as a hospital's name would.
ID_LABEL = re.compile(ID_LABEL_WORDS, re.IGNORECASE)
# The paired parts a practice is named by; capitalised words before them are its name whatever they
# are ("Four States Foot & Ankle": "Four" and "States" are common, even ICD, words).
PAIRED_PRACTICE = (
    r"Foot\s+(?:&|and)\s+Ankle|Bone\s+(?:&|and)\s+Joint|Spine\s+(?:&|and)\s+Pain|"
    r"Ear,?\s+Nose\s+(?:&|and)\s+Throat|Oral\s+(?:&|and)\s+(?:Maxillofacial|Facial)(?:\s+Surgery)?|"
    r"Heart\s+(?:&|and)\s+Vascular|Skin\s+(?:&|and)\s+Cancer"
)
FACILITY_HEAD = (
    # (a facility by its kind first, before "health care" alone is taken: "Chinle Comprehensive Health
    # Care Facility", "Red Rock Treatment Center", "Guildwood Family Health Team")
    r"(?:(?:health\s*care|health|medical|treatment)\s+facility|treatment\s+cent(?:er|re)|family\s+health\s+team|"
    # the agencies for the elderly: "Three Rivers Area Agency on Aging", "Marshall County Council on Aging"
    r"(?:agency|council|commission|office)\s+(?:on|for\s+the)\s+aging|"
    r"health\s+(?:department|dept)|hospital\s+district|hospitals?|hosp|clinics|health\s+services|medical\s+center|medical\s+centre|med\s+ctr|med\s+center|health\s+center|"
    r"health\s+systems?|health\s*care\s+systems?|healthcare|health\s+care|clinic|infirmary|nursing\s+home|"
    r"nursing\s+(?:and\s+rehab(?:ilitation)?\s+)?(?:center|facility)|"
    r"rehab(?:ilitation)?(?:\s+(?:center|hospital|facility))?|care\s+center|hospice|pharmacy|urgent\s+care|"
    r"memory\s+care|community\s+care|care\s+home|community\s+services|gardens|snf|ltach|house|inn|lodge|"
    r"regional(?!\s+(?:anesthesia|block|wall|lymph|enteritis|ileitis|pain|variation))|"
    r"memorial|medical\s+group|surgery\s+center|surgical\s+center|cancer\s+(?:center|institute)|"
    r"heart\s+institute|institute|manor|assisted\s+living|senior\s+living|living\s+center|"
    r"dialysis(?:\s+center|\s+unit)?|home\s+health|home\s+care|health|labs?|laboratories|radiology|imaging|"
    r"family\s+practice|family\s+medicine|family\s+care|family\s+health|internal\s+medicine|primary\s+care|pediatrics|associates|va|vamc|"
    r"general|children'?s|center|centre|ctr|cardiology|dermatology|orthopa?edics?|oncology|neurology|"
    # a medical supplier: "Hoyer lift from Tri-County Medical Supply"
    r"medical\s+supply|"
    # a hospital named by its emergency department: "SILVER RIDGE EMERGENCY DEPT VISIT"
    r"emergency\s+(?:department|dept|room)|"
    # a drugstore, a counselling practice, an apartment block, a town's ambulance service, a short
    # orthopaedic practice: "Colfax Apothecary", "Reliable Drug", "North Shore Counseling",
    # "Seacrest Towers", "Hampden Falls EMS", "Oakmont Ortho"
    r"apothecary|(?-i:Drugs?|DRUGS?)|counseling|counselling|towers|(?-i:EMS)|(?-i:Ortho|ORTHO)|"
    # more heads of care and of the organisations around it: "Anand Diagnostic Laboratory", "Winnipeg
    # Regional Health Authority", "Cardiff and Vale UHB", "United Health Centers", "Lodge Grass Public
    # Schools", "Childhood Cancer Foundation", "Rocky Mountain Health Plans"
    r"laboratory|health\s+authority|(?-i:UHB|HSE)|cent(?:er|re)s|schools|foundation|health\s+plans?|"
    # a British general practice named after its street
    rf"(?-i:{STREET_SURGERY_NAME})|"
    # more places of daily life: "Legends Casino", "Dimple Dell Park", "Paycor Stadium", "Balogun Market",
    # "Fishermen's Terminal", "Buffalo Chip Campground"
    r"(?-i:Casino|CASINO|Park|Stadium|Terminal|Market|Campground|Pub)|"
    # a named building of a hospital: "the Hollis Building, 4th floor"
    r"(?-i:Building|BUILDING)|"
    # places of daily life named by their kind, capitalised as part of the name: "Robbins Library",
    # "Ristuccia Arena", "Paradise Rock Club", "Springfield Museums", "Trairatanaram Temple",
    # "Nyama Choma Grill", "Kowalczyk Hardware", "Harvard Square", "Fields Corner", "Fallon Ambulance",
    # "Lynn Housing Authority", "Checker Cab", "Legal Sea Foods", "Quincy Medical", "Benedetti & Sons"
    # a high school or a school district by its name alone: "Pershing High", "Fort Bend ISD"
    r"(?-i:High|ISD)|"
    # an English trust: "Leeds Teaching Hospitals NHS Trust" (a middle school by its name alone,
    # "Goodson Middle", was tried: "middle lobe", "middle finger" made every note slower to read)
    r"(?-i:NHS\s+(?:Foundation\s+)?Trust)|"
    r"(?-i:Library|LIBRARY|Arena|ARENA|Club|CLUB|Museums?|MUSEUMS?|Temple|TEMPLE|Grill|GRILL|Restaurant|"
    r"Cafe|Café|Bakery|Hardware|HARDWARE|Forest|Square|SQUARE|Sq|Corner|Ambulance|AMBULANCE|"
    r"Housing\s+Authority|Cab|Foods|Sons|Medical|MEDICAL)|"
    # more heads of organisations, shops and places, capitalised as part of the name: "Natick Mall",
    # "Frogtown Farm", "Cedar Valley Nature Trail", "Alabama Medicaid Agency", "Marshall County Council
    # on Aging", "Access Community Health Network", "Fuel Fund of Maryland", "Retina Consultants of
    # Houston", "Excel Mining", "PPL Electric", "KTA Super Stores", "Pacific Interpreters", "Ace Medical
    # Transport", "Bright Beginnings Child Care", "Mass Eye and Ear"; and a company by its legal form:
    # "JB Finishing LLC", "Hammond & Rhee, PLLC", "Texas Mutual Insurance Co"
    r"(?-i:Mall|MALL|Farms?|FARMS?|Trail|Agency|AGENCY|Council|COUNCIL|Network|NETWORK|Fund|Society|"
    r"SOCIETY|Association|ASSOCIATION|Consultants|CONSULTANTS|Mining|Distributing|Electric|ELECTRIC|"
    r"Stores|Interpreters|Transport|TRANSPORT|Child\s+Care|Day\s?care|Eye\s+(?:and|&)\s+Ear|"
    r"EYE\s+(?:AND|&)\s+EAR|LLC|PLLC|LLP|Inc\.?|INC\.?|Corp\.?|Insurance\s+Co(?:mpany)?|"
    # "Summit Surgical Group", "Mid-South Food Bank", "Cedar Creek Apartments"
    r"Group|GROUP|Bank|BANK|Apartments|Apts|Care|Services|"
    # courts, funeral homes, cemeteries and missions: "Shelby County Probate Court", "Evergreen
    # Mortuary", "Tackett Family Cemetery", "Union Gospel Mission", "Lutheran Metropolitan Ministry"
    r"Court|COURT|Mission|MISSION|Ministry|Ministries|"
    # practices named by the parts they treat, paired: "Four States Foot & Ankle", "Blue Ridge Bone &
    # Joint", "Valley Spine & Pain", "Coastal Ear, Nose & Throat", "Lone Star Oral & Maxillofacial
    # Surgery"; an optometry practice: "Family Vision of Gallup", "Vision Source of Tahlequah"
    rf"{PAIRED_PRACTICE}|Vision(?:\s+Source)?|Eye\s?[Cc]are|Dental\s+Care|"
    # the VA's community clinics, a Navajo chapter house, military bases and air stations: "American
    # Samoa CBOC", "Kaibeto Chapter", "Andersen AFB", "Naval Station Norfolk", "Air Station Sitka"
    r"CBOC|Chapter(?:\s+House)?|AFB|Air\s+Force\s+Base|Naval\s+(?:Air\s+)?Station|Air\s+Station|Joint\s+Base|"
    # lakes, creeks and the land where people work, camp, hunt and fish: "Mille Lacs Lake", "Council
    # Lake", "Spruce Fork", "Sunrise Canyon", "Lodge Grass Creek"
    # (only the heads no clinical phrase has in lower case: not "river", "island", "hollow", "beach")
    r"Lake|LAKE|Creek|CREEK|Canyon|CANYON|Fork)|"
    r"mortuary|cemetery|funeral\s+(?:home|services|chapel)|(?:rescue|gospel)\s+mission|daycare|"
    # abbreviated heads of a medical, health or community centre or college, and a town's police or
    # fire service: "Tufts MC", "Jamaica Plain HC", "Bunker Hill CC", "Revere PD", "Framingham FD"
    r"(?-i:MC|HC|CHC|CC|PD|FD|Police(?:\s+Department)?|POLICE(?:\s+DEPARTMENT)?|Fire(?:\s+Department)?|FIRE)(?!:)|"
    r"urology|gastroenterology|endoscopy|ophthalmology|optometry|dental|dentistry|diagnostics|therapy|"
    r"rheumatology|geriatrics|nephrology|pulmonology|endocrinology|ha?ematology|"
    r"physicians|specialists|partners|practice|medicine|vna|recovery|seniorlife|residence|village|"
    r"school|elementary|academy|university|college|convent|monastery|church|campus|office|hall|shelter|"
    r"construction|industries|corporation|company|freight|logistics|"
    # places of care, custody, worship and lodging outside the US pattern: "Ring Road Polyclinic",
    # "Mengo Dispensary", "Sunnyside Rest Home", "Cook County Jail", "Central Mosque", "Premier Inn"
    r"polyclinic|dispensary|sanatorium|maternity\s+home|rest\s+home|retirement\s+home|group\s+home|"
    r"residential\s+home|correctional\s+(?:facility|cent(?:er|re)|institution)|prison|jail|penitentiary|"
    r"detention\s+cent(?:er|re)|pavilion|barracks|airport|mosque|cathedral|synagogue|gurdwara|hostel|hotel|motel)"
)
STREET_SURGERY = re.compile(STREET_SURGERY_NAME)
# Heads that also end the names of services and plans ("Interpreter Services", "Plan of Safe Care"):
# a facility only with a proper name before them (FacilityRecognizer._proper_name).
WEAK_HEADS = frozenset({"Care", "Services"})
# Churches' denominations, which end a congregation's name after its saint or patron ("St. Paul's
# Presbyterian", "Mt. Zion Baptist", "Our Saviour's Lutheran"); alone they name a faith, not a place.
DENOMINATIONS_TITLED = (
    "Lutheran|Presbyterian|Methodist|Baptist|Episcopal|Catholic|Pentecostal|Adventist|Congregational|"
    "Evangelical|Orthodox|Mennonite|Nazarene|AME|Missionary\\s+Baptist"
)
DENOMINATIONS = DENOMINATIONS_TITLED.lower()
# Denominations written by their initials: Missionary Baptist, Seventh-day Adventist, Christian
# Methodist Episcopal, Church of God in Christ, African Methodist Episcopal (Zion).
BLACK_CHURCH_DENOMINATIONS = r"(?:M\.B\.|MB|SDA|C\.M\.E\.|CME|COGIC|A\.M\.E\.(?:\s+Zion)?|AME\s+Zion)"
# Heads that only a place of care has: an acronym before one is the place's name ("KEM Hospital").
STRONG_HEAD = re.compile(
    r"(?i:hospital|hosp\b|infirmary|medical\s+(?:college|cent(?:er|re))|teaching\s+hospital)"
)
# Words that end a facility's name when walking back from its head: "the outside hospital".
STOPPERS = frozenset(
    """outside osh local other another same different this that the our their his her your a an any
    nearby previous prior referring receiving transferring accepting f/u follow-up followup""".split()
)
# Words that describe a facility without naming it: "outside hospital", "the clinic", "our rehab".
GENERIC = frozenset(
    """outside osh local community other another same different this that the our their his her your
    a an any nearby previous prior home new old main state county city regional university general
    teaching academic tertiary referring receiving transferring accepting skilled nursing rehab
    cardiology oncology dialysis radiology pediatric primary urgent walk-in walk in outpatient inpatient
    va hospital clinic pharmacy health care medical center surgery surgical memorial children's
    family specialty follow-up followup f/u high elementary middle school office front back
    paediatric emergency department dept room adult psychiatric trauma campus""".split()
)
CONNECTORS = frozenset({"and", "&", "of"})
# Words after which a place's name begins: "stays at ...", "back to ...", "referral from ...".
PLACE_CUES = frozenset("at to from by with via in".split())
# States by the short names that hospitals and universities are named with, capitalised.
STATE_SHORT_NAMES = frozenset({"Mass", "MASS", "Penn", "PENN", "Conn", "Calif", "Mich", "Minn"})
# What separates a heading's fields: "DISCHARGE SUMMARY - MERCY HOSPITAL, TOWN", "PCP: X, Y HOSPITAL".
HEADER_SEPARATOR = re.compile(r"[ ]+[-–—]+[ ]+|,[ ]+|:[ ]+|[ ]{2,}")
# National health programmes and kinds of cover, which name no one's plan: "Insurance: Medicare".
PROGRAMMES = frozenset(
    "medicare medicaid tricare champva none self self-pay pending private commercial uninsured unknown".split()
)
PLACE_LABEL = (
    r"(?i:location|facility|site|pharmacy|performing\s+lab|lab|laboratory|hospital|clinic|school|"
    r"employer|employed\s+by|works\s+at|place\s+of\s+service|pos|transferred\s+from|referred\s+from|"
    r"accepting\s+facility|nursing\s+home|snf|rehab|agency|vna|dme(?:\s+(?:company|vendor))?|"
    r"home\s+health|daycare|residence|"
    # who pays, supplies and buries: "Insurance: Anthem", "Vendor: Numotion", "Funeral home: Larkin Mortuary"
    r"insurance|insurer|ins|health\s+plan|payer|payor|vendor|supplier|funeral\s+home|mortuary|"
    # a transfer's two ends and where care is given: "Receiving facility: ...", "Site of care: ..."
    r"(?:receiving|sending)\s+(?:facility|hospital)|site\s+of\s+care)"
)
PLACE_WORD = r"[A-Z][\w'’.&-]*"
# What follows a head word that names a disease, a rule or a score, not a place: "Council Lake
# score" (no facility is read from a head the text makes a disease's or a score's).
NAMED_DISEASE_AFTER = re.compile(r"\s+(?i:virus|fever|disease|syndrome|criteria|score|encephalitis)\b")
# The labels of who pays, before the plan's name.
PAYER_LABEL = re.compile(r"\b(?i:insurance|insurer|ins|health\s+plan|payer|payor)\s*:\s*\Z")


class FacilityRecognizer(LexiconRecognizer):
    """Name words before a facility head ("CALVERT HOSP", "St. Mary's Medical Center", "Heart Center
    at Longwood"), or a hospital-style acronym after a place cue ("transferred from GH", "at BIDMC")."""

    HEAD = re.compile(rf"\b{FACILITY_HEAD}\b", re.IGNORECASE)
    # the text is read for heads only where one of their words is (deid.prefilter)
    HEADS = Scanner(HEAD)
    # (in capitals too: "UNIVERSITY MEDICAL CENTER OF EL PASO", "HOSPITAL OF COOK COUNTY")
    # (up to four words, "of", "the", "and" between them: "Food Bank of Middle Tennessee", "Housing
    # Authority of the City of Milwaukee")
    TAIL = re.compile(
        rf"\s+(?:of|at|for|OF|AT|FOR)\s+(?:(?i:the)\s+)?(?P<tail>{PLACE_WORD}"
        rf"(?:(?<![a-z]{{3}}\.)\s+(?:(?:of|the|and|OF|THE|AND)\s+){{0,2}}{PLACE_WORD}){{0,3}})"
    )
    # the town a facility is in, written after it: "Christian Medical College, Vellore"
    # (or after a dash, as letterheads write it: "BAPTIST HEALTH MEDICAL CENTER - LITTLE ROCK")
    TOWN_AFTER = re.compile(r"(?:,|[ ][-–—])?\s(?P<town>[A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?)")
    # (in a lower-case note, in lower case: "mercy hospital springfield", "st. luke's rehabilitation - meridian")
    LOWER_TOWN_AFTER = re.compile(r"(?:,|[ ][-–—])?[ ](?P<town>[a-z][\w'-]+(?:[ ][a-z][\w'-]+)?)")
    LOWER_TAIL = re.compile(r"\s+(?:of|at|in)\s+(?P<tail>[a-z][a-z'-]+(?:\s+[a-z][a-z'-]+)?)")
    # (the cue in any case, "AT BMC" in capitals too; "@" has no word boundary before it)
    ACRONYM = Scanner(
        re.compile(
            r"(?:\b(?i:at|from|to|in|transferred\s+from|transfer\s+from|tx\s+from|admitted\s+to|seen\s+at|"
            r"followed\s+at)|@)\s+(?:(?i:the)\s+)?(?P<phi>[A-Z]{2,6})\b(?!-)",
        )
    )
    # a hospital's acronym before one of its services or records: "MGH burn", "BIDMC lab 3", "MGH, 4/3 note"
    ACRONYM_SERVICE = Scanner(
        re.compile(
            r"\b(?P<phi>[A-Z]{2,6})(?=,?\s+(?:\d{1,2}/\d{1,2}\s+)?(?i:clinic|ed|er|emergency|burn|lab|labs|note|notes|"
            r"records?|liaison|cardiology|oncology|radiology|imaging|ortho|neuro|surgery|icu|ccu|micu|pharmacy|"
            r"outpatient|inpatient|admission|discharge|endocrine|endocrinology|nephrology|hematology|"
            r"asthma\s+clinic|sleep|wound|infusion|rehab|stroke|transplant|peds|urgent\s+care)\b)"
        )
    )
    # a hospital's acronym before the number it gives its patients: "DFCI #: 02-118-774", "MSK MRN
    # 39012877", "(HCI# 0093318)"; an abbreviation with a record number is no clinical one
    RECORD_ACRONYM = Scanner(
        re.compile(
            r"\b(?P<phi>[A-Z]{3,6})(?=\s?(?:(?P<mrn>(?i:mrn|mr\s?#))\s?:?\s?[A-Z]{0,3}\d|#\s?:?\s?[A-Z]{0,3}\d[\d-]{4}))"
        )
    )
    # the same by a name rare in English: "Emory MRN E7720419", "Aspirus MRN AW-10228", "Joslin #: J-0884217"
    RECORD_NAME = Scanner(
        re.compile(
            r"\b(?P<phi>[A-Z][a-z]{3,15})(?=\s?(?:(?i:mrn|mr\s?#)\s?:?\s?[A-Z]{0,3}-?\d|#\s?:\s?[A-Z]{0,3}-?\d))"
        )
    )
    RECORD_NAME_ZIPF = 3.5
    # the labels of record, licence and study numbers themselves, and the outside hospital:
    # "ACCT # 88", "NPI # 123...", "IRB #2023-0447", "EMS PCR #24-0331", "OSH MRN ..."
    NUMBER_LABELS = frozenset(
        """MRN ACC ACCT ENC CSN FIN HAR REF CASE ICN SSN DOB PIN NHS EMR EHR JOB ORDER ROOM BED UNIT DOC
        IRB NRCME NPI DEA CLIA NCT UPIN OSH PCR""".split()
    )
    SAINT = Scanner(
        re.compile(
            # (not the ST segment of an ECG: "no ST changes", "ST ELEVATION")
            r"\b(?:st|saint|mt|mount)\.?\s+(?!(?:elevations?|depressions?|changes?|segments?|waves?|abnormalit)\b)"
            # (and a particle and a second name, "St. Vincent de Paul"; a place's word after it)
            rf"[A-Z][a-z]+(?:'s)?(?:\s+(?:de|de\s+la|du|of)\s+[A-Z][a-z]+)?"
            rf"(?:\s+(?:hospital|medical|regional|general|home|house|church|school|{DENOMINATIONS}))?",
            re.IGNORECASE,
        )
    )
    # a congregation by its patron and denomination: "Our Saviour's Lutheran", "Grace's Baptist"
    PATRON_CHURCH = Scanner(re.compile(rf"\b(?:Our\s+)?[A-Z][a-z]+['’]s\s+(?-i:{DENOMINATIONS_TITLED})\b"))
    # a veterans' or fraternal post by its number: "VFW Post 4768", "American Legion Post 12", "DAV
    # Chapter 16", "Elks Lodge 1245"; a vessel: "F/V NORTHERN DAWN", "M/V Aleutian Lady"; a naval
    # hospital or medical center by its place: "USNH Guam", "NMC Portsmouth"
    POST = Scanner(
        re.compile(
            r"\b(?:VFW|American\s+Legion|AMVETS|DAV|Elks|Moose|Eagles|Knights\s+of\s+Columbus)\s+"
            r"(?:Post|Chapter|Lodge|Council)\s+#?\d{1,5}\b"
            r"|\b[FM]/V\s+[A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*){0,3}"
            r"|\b(?:USNH|NMC|BAMC|WRNMMC|NMCSD)\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?"
        )
    )
    # a congregation by its ordinal or its virtue and denomination, in any case: "first presbyterian",
    # "Grace Lutheran", "FIRST BAPTIST" (not "Southern Baptist" or "Roman Catholic", which are churches)
    # (and by a Bible's place with "Little", "New", "Greater" or "Mount" before it, and the Black
    # churches' abbreviated denominations: "LITTLE ZION BAPTIST", "Mt. Pisgah M.B. Church", "Greater
    # Mount Zion AME Church", "New Shiloh Baptist", "Little Zion Old Regular Baptist")
    VIRTUE_CHURCH = Scanner(
        re.compile(
            rf"\b(?i:(?:(?:little|new|greater|mount|mt\.?)\s+){{0,2}}(?:first|second|third|grace|trinity|faith|hope|"
            rf"calvary|bethel|bethany|zion|emmanuel|immanuel|shiloh|pisgah|ebenezer|macedonia|antioch|olivet|olive|"
            rf"gethsemane|canaan|hebron|galilee|sinai|carmel|moriah|tabernacle|"
            rf"redeemer|resurrection|good\s+shepherd|holy\s+trinity|holy\s+cross|christ|st\.?\s+\w+))\s+"
            rf"(?:(?i:{DENOMINATIONS}|old\s+regular\s+baptist|free\s+will\s+baptist)|{BLACK_CHURCH_DENOMINATIONS})"
            rf"(?![\w.])(?:\s+(?i:church|home))?"
        )
    )
    # a children's hospital by the name after its head: "Children's Mercy", "Children's Minnesota"
    # (not a children's formulation of a drug: "Children's Tylenol", "Children's Motrin")
    # (or before it, a state or town's: "Seattle Children's", "TEXAS CHILDREN'S HOSPITAL", "Children's
    # Hospital Colorado")
    CHILDRENS_NAMED = (
        re.compile(
            r"\b(?:Children|CHILDREN)['’][sS][ ](?:(?:Hospital|HOSPITAL)[ ])?(?P<name>[A-Z][A-Za-z]{2,})\b"
        ),
        re.compile(
            r"\b(?P<name>[A-Z][A-Za-z]{2,})[ ](?:Children|CHILDREN)['’][sS]\b(?:[ ](?:Hospital|HOSPITAL)\b)?"
        ),
    )
    CHILDRENS_NAME_ZIPF = 4.5
    HOSPITAL_ACRONYM = re.compile(r"^(?:[A-Z]{0,4}(?:H|MC|HC|MH|GH|CH|RH|UH|VA|VAMC)|[A-Z]{2,3}MC)$")
    SCORE: ClassVar[float] = 0.8

    ENTITIES: ClassVar[tuple[str, ...]] = (LOCATION,)

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        results: list[RecognizerResult] = []
        for match in self.HEADS.finditer(text):
            if NAMED_DISEASE_AFTER.match(text, match.end()):
                continue  # "Council Lake score": a scale's name, not a place
            start = self._name_start(text, match.start())
            end = self._end(text, match.end())
            if start is None and end > match.end() and match.group()[0].isupper():
                # "Heart Center at Longwood", "Hospice of the North Shore": named by the place after
                start = self._capitalised_start(text, match.start())
            elif start is None and (town_end := self._town_tail(text, match.end())):
                # in lower-case notes: "f/u surgical associates of needham", "rehab at braintree"
                start, end = self._generic_start(text, match.start()), town_end
            elif start is None and STREET_SURGERY.fullmatch(match.group()):
                start = match.start()  # the street before it is found as one: "Station Road Surgery"
            header = self._header_start(text, match.start(), end)
            if header is not None and (start is None or header < start):
                start = header  # "DISCHARGE SUMMARY - ALASKA NATIVE MEDICAL CENTER, ANCHORAGE"
            if (
                start is not None
                and match.group() in WEAK_HEADS
                and not self._proper_name(text, start, match.start())
            ):
                continue  # "Interpreter Services", "Monitored Anesthesia Care", "Care of the Elderly"
            if start is not None:
                end = self._town_end(text, end)
                results.append(RecognizerResult(LOCATION, start, end, self.SCORE))
        for match in self.ACRONYM.finditer(text):
            word = match.group("phi")
            if case_at(text, match.start("phi")) is Case.UPPER and self.lexicon.zipf(word) >= 3.5:
                continue  # in capitals a word is no acronym: "CALL LIGHT IN REACH", "UP TO BATH"
            if self._is_hospital_acronym(word) or (
                case_at(text, match.start("phi")) is Case.MIXED and self._is_place_acronym(word)
            ):
                results.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), 0.7))
        for match in self.ACRONYM_SERVICE.finditer(text):
            word = match.group("phi")
            if self._is_hospital_acronym(word) or (
                case_at(text, match.start()) is Case.MIXED and self._is_place_acronym(word)
            ):
                results.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), 0.65))
        for match in self.RECORD_ACRONYM.finditer(text):
            word = match.group("phi")
            if word in self.NUMBER_LABELS or word in self.lexicon.state_abbrevs:
                continue
            # before "MRN" any acronym is a hospital's ("MSK MRN"); before "#", one that is not a
            # clinical abbreviation or a word ("EEG #", "VISIT #", "EMS RUN #")
            if match.group("mrn") or self._is_place_acronym(word):
                results.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), 0.65))
        for match in self.RECORD_NAME.finditer(text):
            low = match.group("phi").lower()
            lex = self.lexicon
            if lex.zipf(low) < self.RECORD_NAME_ZIPF and not (
                lex.is_clinical(low)
                or low in GENERIC
                or low in NOT_NAMES
                or role_word(low)
                or ID_LABEL.fullmatch(low)  # "Acct #:", "Accession #:" label the number themselves
            ):
                results.append(RecognizerResult(LOCATION, match.start("phi"), match.end("phi"), 0.65))
        childrens = "hildren" in text or "HILDREN" in text  # (few texts name a children's hospital)
        for match in (m for regex in self.CHILDRENS_NAMED if childrens for m in regex.finditer(text)):
            if self._childrens_name(match.group("name")):
                end = self._town_end(text, match.end())
                results.append(RecognizerResult(LOCATION, match.start(), end, 0.9))
        for match in self.POST.finditer(text):
            results.append(RecognizerResult(LOCATION, match.start(), match.end(), 0.65))
        for match in self.VIRTUE_CHURCH.finditer(text):
            results.append(RecognizerResult(LOCATION, match.start(), match.end(), 0.6))
        for match in self.PATRON_CHURCH.finditer(text):
            patron = match.group().split()[-2].rstrip("'’s").lower()  # not "Pt's Catholic faith"
            if patron not in NOT_NAMES and not role_word(patron) and patron not in FAMILY:
                results.append(RecognizerResult(LOCATION, match.start(), match.end(), 0.6))
        for match in self.SAINT.finditer(text):
            results.append(RecognizerResult(LOCATION, match.start(), self._town_end(text, match.end()), 0.6))
        return results

    def _childrens_name(self, word: str) -> bool:
        """The word after "Children's" that names the hospital: rare in English, or a town or a state."""
        low = word.lower()
        lex = self.lexicon
        if low in GENERIC or low in NOT_NAMES or self.HEAD.fullmatch(word):
            return False  # "Children's Hospital": the head itself, found from its own words
        if lex.is_place_word(low) or lex.is_town(low):
            return True  # a state or a town, though a disease be named after it ("Colorado tick fever")
        return lex.zipf(low) < self.CHILDRENS_NAME_ZIPF and not (
            lex.is_clinical(low) or lex.is_clinical_term(low)
        )

    def _header_start(self, text: str, head_start: int, end: int) -> int | None:
        """Where a hospital's name starts when the hospital heads its line or field in capitals,
        its words common ones ("ALASKA NATIVE MEDICAL CENTER", "CHEROKEE NATION W.W. HASTINGS
        HOSPITAL"): from the line's start or a separator (" - ", ", ", ": ") to a strong head, with
        only the rest of the heading after it (a town, a department) up to the line's end."""
        if STRONG_HEAD.match(text, head_start) is None or case_at(text, head_start) is not Case.UPPER:
            return None
        end = self._town_end(text, end)  # the heading may name its town: "UNIVERSITY MEDICAL CENTER EL PASO"
        line_start = text.rfind("\n", 0, head_start) + 1
        seps = [m.end() for m in HEADER_SEPARATOR.finditer(text, line_start, head_start)]
        start = seps[-1] if seps else line_start
        while start < head_start and text[start] in " \t":
            start += 1
        words = text[start:head_start].split()
        if words and words[0] == "THE":
            words = words[1:]
        line_end = text.find("\n", end)
        rest = text[end : len(text) if line_end < 0 else line_end]
        if not 1 <= len(words) <= 4 or len(rest) > 40 or (rest.strip() and not HEADER_SEPARATOR.match(rest)):
            return None
        lex = self.lexicon
        lows = [word.strip(".,'’").lower() for word in words]
        if any(not w.isupper() for w in words) or any(
            low in STOPPERS or low in NOT_NAMES or lex.is_clinical_term(low) for low in lows
        ):
            return None
        # a name of clinical words alone is a kind of hospital: "PAIN MANAGEMENT HOSPITAL"
        return None if all(lex.is_clinical(low) and not lex.is_town(low) for low in lows) else start

    def _end(self, text: str, end: int) -> int:
        """Extend over "of Braintree" / "at Longwood" when a proper name follows the head."""
        tail = self.TAIL.match(text, end)
        if not tail:
            return end
        words = tail.group("tail").split()
        # its first one or two capitalised words unless the first is a department's ("of Medicine")
        kept = 0
        if words[0].lower() not in GENERIC | NOT_NAMES:
            kept = 2 if len(words) > 1 and words[1].lower() not in CONNECTORS | {"the"} else 1
        # and longer names, up to the last proper word before a clinical or stop word: "of Middle
        # Tennessee", "of the City of Milwaukee"
        for i, word in enumerate(words):
            low = word.strip(".,").lower()
            if low in NOT_NAMES or low in STOPPERS or self.lexicon.is_clinical_term(low):
                break
            if low not in CONNECTORS and low not in GENERIC:
                kept = max(kept, i + 1)
        if kept == 0:
            return end
        pos = tail.start("tail")
        for word in words[:kept]:
            pos = text.index(word, pos) + len(word)
        last = words[kept - 1]
        return pos - (1 if last.endswith(".") and len(last) > 5 else 0)

    def _town_end(self, text: str, end: int) -> int:
        return self.town_end(text, end, self.lexicon)

    @classmethod
    def town_end(cls, text: str, end: int, lexicon: Lexicon) -> int:
        """The end of a gazetteer town of one or two words right after a facility, or `end`."""
        after = cls.TOWN_AFTER.match(text, end)
        if not after and case_at(text, end - 1) is Case.LOWER:
            after = cls.LOWER_TOWN_AFTER.match(text, end)
        if not after:
            return end
        words = after.group("town").split()
        comma = text[end] in ",-–—" or text[end + 1 : end + 2] in ("-", "–", "—")
        for n in (2, 1):
            phrase = " ".join(words[:n])
            if len(words) < n or not lexicon.is_town(phrase) or lexicon.is_place_word(phrase):
                continue
            # (or a field's end: "UNIVERSITY MEDICAL CENTER EL PASO   ROOM: W7-22")
            line_end = (
                re.match(r"[ \t]*(?:\n|$)|[ ]{3,}", text[after.start("town") + len(phrase) :]) is not None
            )
            # "Hospital Medicine Progress Note": no town; "Pollokshields Medical Practice Glasgow\n": one
            if comma or lexicon.zipf(words[0]) < 4.0 or (line_end and lexicon.zipf(words[0]) < 5.0):
                return after.start("town") + len(phrase)
        return end

    def _town_tail(self, text: str, end: int) -> int:
        """The end of a gazetteer town written in lower case after "of" or "at" ("of needham"), or 0."""
        tail = self.LOWER_TAIL.match(text, end)
        if not tail or case_at(text, end) is Case.MIXED:
            return 0
        words = tail.group("tail").split()
        for n in (2, 1):
            if len(words) >= n and self.lexicon.is_town(" ".join(words[:n])):
                return tail.start("tail") + len(" ".join(words[:n]))
        return 0

    def _generic_start(self, text: str, head_start: int) -> int:
        """The start of the describing words before a head ("surgical associates"), or the head's."""
        start = head_start
        offset = max(0, head_start - 40)
        for tok in reversed(tokenize(text[offset:head_start])[-2:]):
            if text[offset + tok.end : start] != " " or tok.lower not in GENERIC or tok.lower in STOPPERS:
                break
            start = offset + tok.start
        return start

    def _capitalised_start(self, text: str, head_start: int) -> int:
        """The start of the capitalised words directly before a facility head ("Heart" of "Heart
        Center"), or the head itself."""
        start = head_start
        for tok in reversed(tokenize(text[max(0, head_start - 40) : head_start])[-3:]):
            offset = max(0, head_start - 40)
            if text[offset + tok.end : start] != " " or not tok.text[0].isupper() or tok.lower in NOT_NAMES:
                break
            start = offset + tok.start
        return start

    def _name_start(self, text: str, head_start: int) -> int | None:
        """Where the facility's name begins, walking back over its words; None if it has no name word."""
        offset = max(0, head_start - 100)
        tokens = tokenize(text[offset:head_start])
        last_end = offset + tokens[-1].end if tokens else head_start
        if not tokens or (
            text[last_end:head_start].strip(" .'’-&") != ""
            and not _wrapped_name(text, tokens[-1], last_end, head_start)
        ):
            return None  # the head not preceded directly by a word: "(hospital)", "hospital."
        name: list[Token] = []
        strong = STRONG_HEAD.match(text, head_start) is not None
        caps_head = text[head_start : head_start + 4].isupper()  # "EMORY CLINIC": a name in capitals
        for tok in reversed(tokens[-6:]):
            gap_end = offset + (name[0].start if name else tokens[-1].end)
            gap = text[offset + tok.end : gap_end]
            # words of one name: "Brigham and Women's", "Spaulding-Kent\nRehabilitation" (a wrapped line)
            if (
                name
                and not re.fullmatch(r"[ &'’-]*|\s*&\s*", gap)
                and not _wrapped_name(text, tok, offset + tok.end, gap_end)
            ):
                break
            if not self._may_be_in_name(text, tok, offset, strong=strong, caps_head=caps_head):
                name = self._cued_common_words(text, tokens, offset, name) or name
                break
            name.insert(0, tok)
        while name and name[0].lower in CONNECTORS:
            name.pop(0)
        paired = re.match(PAIRED_PRACTICE, text[head_start:]) is not None
        if not any(
            self._is_name_word(tok)
            or (paired and tok.text[0].isupper())
            or (strong and text[head_start].isupper() and self._hospital_name_word(tok))
            for tok in name
        ):
            return None
        return offset + name[0].start

    def _cued_common_words(
        self, text: str, tokens: Sequence[Token], offset: int, name: list[Token]
    ) -> list[Token] | None:
        """In a line of one case, the common words that begin a name between a place cue and the
        words found so far ("stays at union gospel mission", "(greater new hope baptist church)"),
        or None: up to three words, none a stop, clinical or role word, directly after the cue."""
        if not name or name[0].case is Case.MIXED:
            return None
        i = next(k for k, t in enumerate(tokens) if t is name[0])
        for n in range(1, 4):
            j = i - n
            if j < 0:
                return None
            tok = tokens[j]
            gap = text[offset + tok.end : offset + tokens[j + 1].start]
            if gap != " ":
                return None
            if tok.lower in PLACE_CUES:
                return list(tokens[j + 1 : i]) + name if n > 1 else None
            low = tok.lower
            if (
                low in STOPPERS
                or low in NOT_NAMES
                or low in CONNECTORS
                or self.lexicon.is_clinical_term(low)
                or role_word(low)
            ):
                return None
            if text[offset + tok.start - 1 : offset + tok.start] == "(":
                return list(tokens[j:i]) + name  # "(greater new hope baptist church)"
        return None

    def _may_be_in_name(
        self, text: str, tok: Token, offset: int, *, strong: bool = False, caps_head: bool = False
    ) -> bool:
        low = tok.lower.removesuffix("'s").removesuffix("’s")
        if tok.lower in CONNECTORS or low in GENERIC - STOPPERS:
            return True  # "Brigham and Women's", "Taunton High School": part of a name, not a name
        if tok.case is not Case.LOWER and self.HEAD.fullmatch(tok.text):
            return True  # a name of two heads: "David Simpson Hospice House", "Laburnum House Care Home"
        if tok.text in ORDINAL_NAME_WORDS:
            return True  # "First Baptist Church", "SECOND PRESBYTERIAN"
        if low in STOPPERS or tok.lower in NOT_NAMES or self.lexicon.is_clinical_term(tok.text):
            return False
        if tok.case is Case.MIXED and not tok.text[0].isupper():
            return False
        if tok.case is Case.MIXED and tok.text.isupper() and len(tok.text) <= 5:
            # An acronym names a facility only in its hospital shape ("BIDMC Cardiology");
            # "EGFR TKI therapy" or "ED Behavioral Health" are clinical.
            # Before "Hospital" or "Infirmary" any acronym that is not medical names one ("KEM
            # Hospital", "LUTH Infirmary"); "ED Behavioral Health" has no such head.
            if strong and len(tok.text) >= 3 and tok.lower not in self.lexicon.medical_words:
                return tok.text not in self.lexicon.state_abbrevs
            if caps_head and len(tok.text) >= 4 and not self.lexicon.is_clinical(tok.lower):
                # before a head in capitals, a census name or a town in capitals is a word of the
                # name, not an abbreviation: "EMORY CLINIC", "TULSA CLINIC"
                return self.lexicon.is_census_name(tok.lower) or self.lexicon.is_town(tok.lower)
            return self.HOSPITAL_ACRONYM.match(tok.text) is not None
        common = self.lexicon.zipf(low) >= 4.5 and not self.lexicon.is_census_name(low)
        if tok.case is not Case.MIXED and common:
            return False
        # "Performing lab", "Maternal labs": an ordinary word that only starts a sentence.
        return not (common and is_sentence_start(text, offset + tok.start))

    def _hospital_name_word(self, tok: Token) -> bool:
        """Before "Hospital", a capitalised word of the ICD list that is no clinical term and not a
        common one names it ("Regions Hospital", "Wills Eye Hospital"); "Heart", "Cancer" and
        "Pain" are kinds of hospital."""
        low = tok.lower.removesuffix("'s").removesuffix("’s")
        lex = self.lexicon
        return (
            tok.case is Case.MIXED
            and tok.text[:1].isupper()
            and low not in GENERIC
            and not lex.is_clinical_term(low)
            and lex.zipf(low) < 4.8
        )

    def _proper_name(self, text: str, start: int, head_start: int) -> bool:
        """Whether the words before a weak head hold a proper name: a town, an acronym, a rare word
        or a census name that is not a common one ("Option Care" is a company by "Option"'s rarity
        as a name, "Kentucky River Comprehensive Care" by its river, "JR Ag Services" by "JR")."""
        lex = self.lexicon
        for tok in tokenize(text[start:head_start]):
            low = tok.lower
            if not tok.text[0].isupper() or low in CONNECTORS or low in GENERIC or low in NOT_NAMES:
                continue
            if role_word(low) or lex.is_clinical(low) or lex.is_clinical_term(low):
                continue
            if lex.is_town(low) or (tok.text.isupper() and len(tok.text) >= 2) or lex.zipf(low) < 3.0:
                return True
            if lex.is_census_name(low) and lex.zipf(low) < 4.0:
                return True
        return False

    def _is_name_word(self, tok: Token) -> bool:
        low = tok.lower.removesuffix("'s").removesuffix("’s")
        if low in CONNECTORS or low in GENERIC:
            return False
        if tok.text in STATE_SHORT_NAMES:
            return True  # "Mass General", "Mass Eye and Ear", though "mass" is clinical
        lex = self.lexicon
        if (
            low == tok.lower
            and lex.is_census_name(low)
            and lex.zipf(low) < 3.5
            and not lex.is_clinical_term(low)
        ):
            return True  # a rare surname that names a syndrome too, not possessive: "Andersen AFB"
        return not self.lexicon.is_clinical(low) or self.lexicon.is_town(low)

    def _is_place_acronym(self, word: str) -> bool:
        """An acronym of three letters or more that is no clinical one nor a word, in a mixed-case line:
        before a service ("LBJ ED", "HCMC Endocrine", "CHOA asthma clinic") it is a hospital's."""
        lex = self.lexicon
        low = word.lower()
        return (
            len(word) >= 3
            and word not in lex.state_abbrevs
            and lex.zipf(low) < 3.5  # "HIM", "ADMIN", "STAFF" are words
            and self.HEAD.fullmatch(low) is None  # "SNF", "VNA", "LTACH": kinds of place
            and not role_word(low)  # "CHW", "LCSW": who, not where
            and not (low in lex.medical_words or lex.is_clinical(low) or lex.is_clinical_term(low))
        )

    def _is_hospital_acronym(self, word: str) -> bool:
        low = word.lower()
        if low in self.lexicon.medical_words or word in self.lexicon.state_abbrevs:
            return False
        return bool(self.HOSPITAL_ACRONYM.match(word))


def _wrapped_name(text: str, tok: Token, end: int, next_start: int) -> bool:
    """A capitalised word of a name before a line wrap: "Spaulding-Kent\nRehabilitation"; not
    "vocational\nrehabilitation" or an acronym ("RA\nGeneral")."""
    word = tok.text
    return word[0].isupper() and not (word.isupper() and len(word) <= 3) and is_wrap(text, end, next_start)


class LabelledPlaceRecognizer(RegexRecognizer):
    """A proper name after a label that announces a place: "Pharmacy: Walgreens", "Facility: ..."."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "label",
            rf"\b{PLACE_LABEL}\s*:\s*(?P<phi>{PLACE_WORD}(?:[ ](?:{PLACE_WORD}|of|and|at|&)){{0,5}})",
            0.7,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            words = list(re.finditer(r"\S+", text[res.start : res.end]))
            while words and words[-1].group().lower() in CONNECTORS:
                words.pop()
            if words:
                out.append(RecognizerResult(LOCATION, res.start, res.start + words[-1].end(), res.score))
        return out

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = re.findall(r"[^\W\d_]+", text[start:end])
        first = words[0].lower() if words else ""
        lows = {w.lower() for w in words}
        if (
            PAYER_LABEL.search(text, max(0, start - 20), start)
            and not lows & PROGRAMMES
            and not lows <= GENERIC
            and first not in NOT_NAMES
        ):
            return True  # a plan named by a generic word first: "Ins: Health Net", "Payer: Community First"
        if (
            not words
            or first in GENERIC
            or first in NOT_NAMES
            or first in ("dr", "pt")
            or first in PROGRAMMES
        ):
            return False
        if self.lexicon.is_place_word(" ".join(words)):
            return False  # a state or a country
        return not all(self.lexicon.is_clinical(w) or w.lower() in NOT_NAMES for w in words)


class EmployerRecognizer(RegexRecognizer):
    """A workplace or school named after what the person does there: "works as a welder at General
    Dynamics", "grad student at Tufts", "missing work at Mass General Brigham", "work note for
    Amazon", "notify employer Walpole Freight Lines". Only capitalised words are taken, so "works
    at a bakery" or "works for the city" name no place."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS: ClassVar[tuple[tuple[str, str, float], ...]] = (
        (
            "employer",
            r"(?i:\b(?:works?|working|worked|employed|employee|job|student|intern|volunteers?|"
            r"work\s+note|missing\s+work|off\s+work|return\s+to\s+work)"
            r"(?:\s+as\s+(?:an?\s+)?[a-z-]+(?:\s+[a-z-]+)?)?\s+(?:at|for|with|from)\s+(?:the\s+)?"
            r"|\bemployer\b(?:/[a-z]+)?(?:\s*\((?-i:[a-z ]{0,30})\))?\s*[:(]?\s*)"
            rf"(?P<phi>{PLACE_WORD}(?:[ ](?:{PLACE_WORD}|of|and|&)){{0,4}})",
            0.65,
        ),
        # a former employer before the trade: "retired Conrail brakeman", "former Westinghouse
        # assembly worker", "retired Pratt & Whitney machinist"
        (
            "former_employer",
            r"(?i:\b(?:retired|former|ex-))[ ]"
            rf"(?P<phi>{PLACE_WORD}(?:[ ](?:{PLACE_WORD}|&)){{0,3}})"
            r"(?=[ ](?:[a-z]+[ ])?[a-z]+(?:er|or|ist|man|men|ian|ant|ee|hand|smith|wright|manager|clerk)\b)",
            0.65,
        ),
    )

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            words = list(re.finditer(r"\S+", text[res.start : res.end]))
            stop = next(
                (i for i, w in enumerate(words) if w.group().endswith(".") and len(w.group()) > 4), None
            )
            words = words if stop is None else words[: stop + 1]  # "at General Dynamics. Asked by"
            while words and (words[-1].group().lower() in CONNECTORS or self._generic(words[-1].group())):
                words.pop()  # "Quincy High School" keeps its words, "at Acme Home" its name only
            if words:
                end = res.start + len(words[-1].group().rstrip(".,;:")) + words[-1].start()
                out.append(RecognizerResult(LOCATION, res.start, end, res.score))
        return out

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        words = re.findall(r"[^\W\d_]+", text[start:end])
        if not words or all(self._generic(w) for w in words) or case_at(text, start) is not Case.MIXED:
            return False  # "works at Home", "student at the University"
        if pattern == "former_employer" and len(words) == 1 and self.lexicon.zipf(words[0]) >= 4.0:
            return False  # "retired English teacher", "former Army medic"
        if self.lexicon.is_place_word(" ".join(words)):
            return False  # a state or a country: "works for Canada Post" is taken, "works in Ohio" not
        return not all(self.lexicon.is_clinical_term(w) or w.lower() in NOT_NAMES for w in words)

    def _generic(self, word: str) -> bool:
        low = word.lower().strip(".,;:")
        return low in GENERIC or low in NOT_NAMES or low in ("dr", "pt", "mr", "mrs", "ms")
