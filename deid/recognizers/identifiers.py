"""Numbers and codes that identify: SSN, MRN, account, plan, licence, device, vehicle and any other
unique code (Safe Harbor G–M, R). Lab values, doses, vitals and clinical codes are kept.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.prefilter import Scanner
from deid.recognizers.base import RegexRecognizer, after, before
from deid.types import ID

LABEL = (
    r"(?=[a-z&])(?:mrn|mr\s?#|mr\s+(?:no|number)|medical\s+record(?:\s+(?:number|no\.?|#))?|med\s+rec|hospital\s+(?:number|no\.?|#)|"
    r"unit\s+(?:number|no\.?)|chart(?:\s+(?:number|no\.?|#))?|acct|account|acc(?:ession)?|encounter|enc|visit|csn|fin|har|"
    r"member(?:\s+id)?|subscriber(?:\s+id)?|policy|group|plan\s+id|medicaid|medicare|mbi|hicn|insurance(?:\s+id)?|"
    r"beneficiary|id|identifier|patient\s+id|pt\s+id|license|licence|lic|dl|driver'?s\s+licen[cs]e|dea|npi|upin|"
    r"certificate|cert|serial|s/n|sn|serial\s+no\.?|device(?:\s+id)?|udi|imei|vin|plate|tag|specimen|"
    r"case|cause\s+(?:no\.?|number|#)|claim|ticket|badge|employee(?:\s+id)?|record|conf(?:irmation)?|ssn|ss#|soc(?:ial)?\s+sec(?:urity)?(?:\s+(?:number|no\.?|#))?|"
    r"passport|reference|ref|auth(?:orization)?|requisition|req|order|rx|prescription|tracking|"
    # health and national numbers outside the US: NHS/CHI/H&C, UHID, IP/OP numbers, Irish PPSN,
    # Canadian health cards (OHIP, PHN, RAMQ), UK NI, Aadhaar, ABHA, NHIS, NIN, NHI, IHI
    r"nhs|chi|h&c|uhid|crn|hosp(?:ital)?\.?\s+(?:reg(?:istration)?|id|no\.?|number|#)|(?:ip|op|ipd|opd)\s+(?:no\.?|number|#)|"
    r"reg(?:istration)?\.?\s+(?:no\.?|number|#)|folder|file\s+(?:no\.?|number|#)|card\s+(?:no\.?|number|#)|"
    r"pps|ppsn|ohip|health\s+card|hcn|phn|ramq|sin|social\s+insurance|nino|national\s+insurance|"
    r"ni\s+(?:no\.?|number)|aadh?aar|uid|abha|pan\s+card|voter\s+id|nhis|nin|nhi|ihi|national\s+id|"
    # a clinician's registration with a licensing council: GMC, NMC, HCPC (UK), IMC (Ireland), MDCN
    # (Nigeria), AHPRA (Australia), CPSO (Ontario), HPCSA (South Africa), MCNZ, PMDC (Pakistan)
    r"gmc|nmc|hcpc|imc\s+(?:reg|no)|mdcn|ahpra|cpso|hpcsa|mcnz|pmdc|"
    # national and insurance numbers of Asia and Africa: PhilHealth, SSS, CNIC, NRIC, HKID, MyKad,
    # Emirates ID, NHIF (Kenya), BVN (Nigeria); and the numbers of episodes, incidents and studies
    r"philhealth|sss|cnic|nric|hkid|mykad|emirates\s+id|nhif|bvn|episode|incident|donor|study\s+id|"
    r"subject|lab\s+(?:no\.?|number|#)|"
    # a report's number, the European Health Insurance Card, Sweden's personal identity number
    r"report\s+(?:no\.?|number|#)|ehic|personnummer|"
    # a US immigrant's alien registration number ("A-number A 212-448-901") and a military family's
    # DoD benefits number (TRICARE "DBN")
    r"a-number|alien\s+(?:registration\s+)?(?:number|no\.?|#)|uscis|dbn|"
    # the numbers of a dictation and its transcription: "Job #: 48213", "eScription document:1-1234567"
    r"job|batch|document|dictation|transcription|"
    # an NHS e-Referral's booking number, Manitoba's health number, a reading workstation's name
    r"ubrn|phin|workstation|"
    # a province's health number, a provider's, a clinic's and an antenatal booking's numbers
    r"health\s+number|provider|clinic\s+(?:no\.?|number|#)|booking|"
    # a vaccine's or device's lot, a dictation's index, an aircraft's tail, the last four of an SSN:
    # "lot MLB7Z03", "Index No. VYMR4K81Q", "tail N911LL", "SSN-last4 4471"
    r"lot|index\s+(?:no\.?|number|#)|tail|ssn-last\s?4|last4|wristband|armband)"
)
# An issuer's acronym before "no.", "reg." or "#": "GMS no. 2291840K", "EHIC no. 80826 ...", "KMC Reg.
# 44718", "UIHC #: 0-998-411-7".
ACRONYM_NUMBER = r"(?-i:\b[A-Z]{2,6})\s+(?:reg(?:istration|d)?\.?(?:\s+no\.?)?|no\.|no:|\#)"
# Labels of a hospital's own numbers, which are often written with the year: "IP No. 4521/23".
RECORD_LABEL = (
    r"(?:mrn|mrd|cr|hosp(?:ital)?|ip|op|ipd|opd|reg(?:istration)?|folder|file|case|card|unit|uhid|record|"
    r"admission|adm)\s*(?:no\.?|number|#|id)?"
)
# A code may come in parts: its issuer, department and year before the serial ("AKTH/OBG/24/0772",
# "MDCN/R/41882"), or a prefix set off by a space ("RR8 1142397", "TNMC 81127").
# A full stop may join its parts ("H24.18831", "APJH.0001188452"), and the number after a spaced
# prefix may itself be in parts ("LC 2291-448-7730-0", "MMC 2009/03/1177").
CODE = (
    r"[A-Z0-9](?:[A-Z0-9.-]*[A-Z0-9])?(?:(?:/[A-Z0-9]{1,8}){1,4}(?![\w/])|"
    r"[ ]\d{2,10}(?:[-/]\d{1,10}){1,4}(?![\w/-])|[ ]\d{4,10}(?![\w/]|\.\d)|"
    # a court's case number, its year, the kind of case in capitals, then the serial: "2024 GRD 288104"
    r"(?<=\d)[ ](?-i:[A-Z]{2,4})[ ]\d{3,10}(?![\w/]|\.\d))?"
)
# A code that a home's door or a portal asks for: "gate code 4471", "PA submitted, key BXK7RTQ2".
ACCESS_LABEL = r"(?:gate|door|entry|access|lockbox|keypad|key)[ ]?code|lockbox|key"
# A unit after a number makes it a measurement; a slash only when written onto the number ("10/hr"),
# not the one that separates two identifiers ("Employee ID MM-228104 / Claim # ..."). The unit is
# written beside the number, not across a form's gap, and is no label: "MRN 3390-117-8   Unit: PICU".
UNITS = re.compile(
    r"[ \t]?(?:mg|mcg|µg|ug|g|kg|ml|l|units?|iu|meq|mmol|cells|copies|%|k|mm|cm|lbs?|cc|steps|calories|kcal)"
    r"(?![\w:])|/",
)


class SsnRecognizer(RegexRecognizer):
    ENTITY = ID
    PATTERNS = (
        ("ssn", r"(?<![\d-])(?!000|666|9\d\d)\d{3}-(?!00)\d{2}-(?!0000)\d{4}(?![\d-])", 0.95),
        # after its label, spaced or not, or only its last four digits, which identify with a name or
        # a date of birth: "SSN last 4: 8820"
        (
            "ssn_spaced",
            r"\b(?:ssn|ss#|social\s+security(?:\s+(?:number|no\.?|#))?)\s*"
            r"(?:\(?\s*last\s*(?:4|four)(?:\s+digits)?\s*\)?|l4)?\s*[:#-]?\s*"
            r"(?P<phi>\d{3}[\s.]?\d{2}[\s.]?\d{4}|(?:x{3}-?x{2}-?)?\d{4})\b",
            0.95,
        ),
        # the last four alone, as the VA writes them without the label: "Veteran: ...  last 4 6120"
        ("last_four", r"\blast\s*(?:4|four)\s*(?:digits\s*)?[:#-]?\s*(?P<phi>\d{4})\b(?![\d/.:-])", 0.8),
        # masked but for its last four digits, which still identify: "xxx-xx-4418", "***-**-4418"
        ("ssn_masked", r"(?<![\w-])(?:x{3}|\*{3})-(?:x{2}|\*{2})-\d{4}(?![\d-])", 0.9),
    )


class LabelledIdRecognizer(RegexRecognizer):
    """A code after a label that says it identifies something: "MRN: 00482913", "S/N PJN4471822"."""

    ENTITY = ID
    PATTERNS = (
        (
            "labelled",
            rf"\b{LABEL}\s*(?:number|no\.?|num|#|id|code)?\s*(?:is|was|of)?\s*[:#=]?\s*#?\s*(?P<phi>{CODE})",
            0.85,
        ),
        # digit groups split by spaces after a label: "meeting ID 933 1882 0417", "kit # 2311 774 509",
        (
            "labelled_spaced",
            rf"\b(?:{LABEL}|meeting(?:\s+id)?|kit|conference|room\s+code|passcode)\s*(?:number|no\.?|#|id|code)?\s*[:#=]?\s*"
            # with its issuer's capitals before it: "Member ID: UHC 991 042 771", "ref COR 2025 006214"
            # and at the end of a sentence: "IHI 7004 1183 62."
            # and digit by digit, as a dictation is transcribed: "medical record number 4 4 1 9 0 2 7"
            r"(?P<phi>(?-i:[A-Z]{2,5} )?\d{2,6}(?: \d{2,6}){1,4}(?-i:[A-Z])?|\d(?: \d){4,11})(?!\d|\.\d)",
            0.8,
        ),
        (
            "access_code",
            rf"\b(?:{ACCESS_LABEL})\s*(?:is|was)?\s*[:#]?\s*#?(?P<phi>[A-Z0-9]{{4,12}})\b(?![.,:/-]?\d)",
            0.8,
        ),
        # a vehicle plate, written in two groups: "VEHICLE PLATE 7KT 449", "license plate ABC-1234"
        (
            "plate",
            r"\b(?:plate|tag|vehicle\s+reg(?:istration)?)\s*(?:number|no\.?|#)?\s*[:#]?\s*"
            r"(?P<phi>[A-Z0-9]{1,4}[ -][A-Z0-9]{2,4})\b",
            0.8,
        ),
        # a number after its issuer's acronym: "GMS no. 2291840K", "KMC Reg. 44718"
        (
            "acronym_number",
            rf"{ACRONYM_NUMBER}\s*[:#]?\s*(?P<phi>{CODE}|\d{{2,6}}(?: \d{{2,6}}){{1,4}}(?![\d.]))",
            0.8,
        ),
        # a hospital number with its year, ward or serial after slashes: "IP No. 4521/23", "folder no
        # 22/1043", "Visa file 201/2024/7/118847"
        (
            "record_slashed",
            rf"\b{RECORD_LABEL}\s*[:#.]?\s*(?P<phi>[A-Z]{{0,3}}\d{{2,8}}(?:/\d{{1,8}}){{1,3}})(?![\w/])",
            0.8,
        ),
    )

    # Where any of the patterns' labels starts. The labels are a long alternation that is slow to
    # try at every position: it is scanned for once (itself only where one of its words is), and the
    # patterns are tried only where it matched.
    LABEL_START = Scanner(
        re.compile(
            rf"\b(?:{LABEL}|{RECORD_LABEL}|{ACCESS_LABEL}|meeting|kit|conference|room\s+code|passcode|plate|tag|vehicle)",
            re.IGNORECASE,
        )
    )

    ACRONYM_START = Scanner(re.compile(ACRONYM_NUMBER, re.IGNORECASE))

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        starts = [m.start() for m in self.LABEL_START.finditer(text)]
        starts += [m.start() for m in self.ACRONYM_START.finditer(text)]
        results: list[RecognizerResult] = []
        seen: set[tuple[int, int]] = set()
        for name, regex, score in self._compiled:
            for pos in starts:
                match = regex.match(text, pos)
                if not match or not match.group("phi"):
                    continue
                start, end = match.span("phi")
                if (start, end) not in seen and self.validate(text, start, end, name):
                    seen.add((start, end))
                    results.append(RecognizerResult(ID, start, end, score))
        return results

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        code = text[start:end]
        # An identifier has digits; "ID consult", "group B strep" and "case 2" do not identify.
        digits = sum(c.isdigit() for c in code)
        if pattern == "record_slashed":
            return digits >= 5
        if pattern == "plate":
            return digits >= 2
        if pattern == "access_code":
            # a door's code is digits; a portal's key mixes letters and digits ("key findings" neither)
            keyed = text[max(0, start - 8) : start].lower().rstrip(" :#").endswith("key")
            if keyed:
                return len(code) >= 6 and digits >= 1 and any(c.isalpha() for c in code)
            return digits >= 3
        if pattern == "acronym_number" and "#" in text[max(0, start - 4) : start] and digits < 5:
            return False  # a store's number ("CVS #0417") is its place's, found with it
        if pattern == "acronym_number" and " " in code.strip():
            return digits >= 7 and not UNITS.match(text[end:].lower())
        if pattern == "labelled_spaced":
            # fewer digits when an issuer's letters lead them: "MR#: GS 41 77 20"
            enough = digits >= (5 if code[:1].isalpha() else 7)
            return enough and not UNITS.match(text[end:].lower())
        letters = any(c.isalpha() for c in code)
        if code[0].isalpha() and text[start - 1 : start].isalpha():
            return False  # the label ran into a word: "VISITED 1900-2000" is not "visit" + "ED 1900-2000"
        if "." in code and (digits < 5 or re.fullmatch(r"[\d.]+", code)):
            return False  # a decimal ("ref 12.5") or a version, not a code in parts
        if digits == 0 or len(code) < 3 or ("/" in code and digits < (3 if letters else 5)):
            return False  # "order 1/2 tab" is not a number in parts; "JB/KL/0091" is
        court = re.fullmatch(r"\d+ [A-Z]{2,4} \d+", code) is not None  # "2024 GRD 288104"
        if " " in code and (digits < 5 or not (code.split()[0].isupper() or court)):
            return False  # "RR8 1142397", "TNMC 81127"; not "since 2021" ("sin" + "ce") or "MAC 5500"
        if "/" in code and code.replace("/", "").isdigit() and digits < 7:
            return False  # "rx 10/325": a dose; "AKTH/OBG/24/0772" and "2024/0771" are numbers
        return not UNITS.match(text[end:].lower())


# A record's top as exports write it, its number and hospital's code, then its fields line by line.
RECORD_TOP = re.compile(r"\A[ \t]*\d{6,}[ \t]+[A-Z]{2,6}[ \t]*\n")
RECORD_TOP_LINES = 5


class RecordTopCodeRecognizer(RegexRecognizer):
    """The codes alone on the lines of an exported record's top: "44019/2k77" under "741029384 FIH"."""

    ENTITY = ID
    FLAGS = re.MULTILINE
    PATTERNS = (("record_top_code", r"^[ \t]*(?P<phi>\d[\w/-]{2,20}[A-Za-z0-9])[ \t]*$", 0.6),)

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        return RECORD_TOP.match(text) is not None and text.count("\n", 0, start) <= RECORD_TOP_LINES


class VinRecognizer(RegexRecognizer):
    ENTITY = ID
    PATTERNS = (
        ("vin", r"\b(?=[A-HJ-NPR-Z0-9]*\d)(?=[A-HJ-NPR-Z0-9]*[A-HJ-NPR-Z])[A-HJ-NPR-Z0-9]{17}\b", 0.8),
    )


AIRCRAFT_BEFORE = re.compile(
    r"\ba/c\b|aircraft|n-number|\btail\b|helicopter|airplane|fixed[- ]wing|rotor-?wing"
)
# An obstetric history in gravida/para (TPAL) notation: "G2P1001", "G3P2".
OBSTETRIC_HISTORY = re.compile(r"G\d{1,2}P\d{1,5}", re.IGNORECASE)
DIMENSIONS = re.compile(r"\d{1,3}X\d{1,3}", re.IGNORECASE)
TIME_OF_DAY = r"(?:[01]\d|2[0-3])[0-5]\d"
TIME_CODE = re.compile(rf"{TIME_OF_DAY}(?:H|HRS?|hrs?|h)?|{TIME_OF_DAY}-{TIME_OF_DAY}")


class UniqueCodeRecognizer(RegexRecognizer):
    """Any other unique code: long digit strings and letter-digit codes ("A1234567", "XK-4471-B").

    Short codes that name clinical things (HbA1c, BRCA1, CA-125, COVID-19, E11.9, T2DM, L4-L5) have
    too few digits to qualify; numbers followed by a unit are measurements.
    """

    ENTITY = ID
    PATTERNS = (
        ("digits", r"(?<![\w.,/:-])\d{6,}(?![\w/:]|[.,]\d|-\d)", 0.6),
        # with a single check digit at the end, as CNIC and PhilHealth numbers have: "35202-1234567-1"
        ("grouped_digits", r"(?<![\w.,/:-])\d{2,6}(?:-\d{2,9}){1,4}(?:-\d)?(?![\w/:]|[.,]\d|-\d)", 0.5),
        # a Hong Kong identity card with its check character: "A123456(7)"
        ("hkid", r"(?<![\w-])[A-Z]{1,2}\d{6}\([0-9A]\)", 0.7),
        # "interpreter #40277", "Band #: 44172": a number of four or more digits after a number sign,
        # maybe in groups ("CERTIFIED MAIL #9589 0710 5270 0412 8836 71")
        ("numbered", r"(?<![\w&])#\s?:?\s?(?P<phi>\d{4,}(?: \d{2,6}){0,6})(?!\w|[.,]\d)", 0.6),
        # a device's UDI in GS1 form, its device identifier then lot, dates and serial:
        # "(01)08717648210126(17)211130(10)9110541"
        ("gs1_udi", r"(?<![\w)])\(01\)\d{14}(?:\(\d{2,4}\)[A-Z0-9-]{1,20})*", 0.8),
        # an ambulance or fire unit: "Unit: M23", "unit B-31", "Medic 7 / Engine 14"
        ("vehicle_unit", r"\bunit\s*[:#]?\s*(?P<phi>[A-Z]{1,4}-?\d{1,3})\b(?!-)", 0.6),
        ("vehicle_named", r"\b(?:medic|engine|ladder|truck|rescue|squad)\s*#?\s*\d{1,3}\b(?![-/.]\d)", 0.6),
        # an aircraft's registration: "A/C: King Air 200 N827GF", "N-number N419LF" (checked for an
        # aircraft before it: an N95 mask is not one; nor, with three characters at least, a nodal stage)
        ("aircraft", r"(?-i:\bN[1-9](?:\d{1,4}[A-Z]{0,2}|[A-Z]{1,2}))\b(?!-)", 0.6),
        # object identifiers of imaging studies and devices: "1.2.840.113619.2.55.3.28431"
        ("oid", r"(?<![\w.])[012](?:\.\d+){4,}(?!\w|\.\d)", 0.7),
        # an ISBT 128 donation identification number on a blood unit (ICCBBA ST-001): a facility
        # code of a letter and four digits, the year in two, a serial of six, often spaced
        # ("W0366 24 118934"), sometimes with two flag digits or its boxed check character after
        ("isbt_din", r"(?<![\w-])[A-NP-Z]\d{4} ?\d{2} ?\d{6}(?: \d{2}| [A-Z0-9*])?(?![\w-])", 0.7),
        # a code with a serial after a slash: "XW277/90683"
        ("alnum_slashed", r"(?<![\w./-])[A-Z]{1,4}\d{2,}/\d{3,}(?![\w/])", 0.6),
        (
            "alnum",
            r"(?<![\w.-])(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9](?:[A-Z0-9-]*[A-Z0-9])(?![\w-])",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        code = text[start:end]
        digits = sum(c.isdigit() for c in code)
        if UNITS.match(text[end:].lower()) or TIME_CODE.fullmatch(code):
            return False  # a measurement; or a time or a shift as nurses write them: "0230HRS", "1900-0700"
        if pattern == "grouped_digits":
            # 617-555 or 10-12 are ranges; a grouped identifier has many digits.
            return digits >= 7 and not re.fullmatch(r"\d{1,2}-\d{1,2}", code)
        if pattern == "alnum_slashed":
            return digits >= 6
        if pattern == "aircraft":
            return AIRCRAFT_BEFORE.search(before(text, start, 40)) is not None
        if pattern in ("numbered", "oid", "isbt_din", "hkid", "gs1_udi", "vehicle_unit", "vehicle_named"):
            return True
        if pattern == "alnum":
            if OBSTETRIC_HISTORY.fullmatch(code) or DIMENSIONS.fullmatch(code) or NOT_CODES.fullmatch(code):
                return False  # gravida and para: "G2P1001"; a size or a count: "15x15"; "140s-190s"
            if PARA.fullmatch(code) and PARA_BEFORE.search(before(text, start, 16)):
                return False  # a para alone after the gravida's history: "G2P0010 -> P0101", "now P1001"
            return digits >= 4 and len(code) >= 5 and not _clinical_code(text, start, code)
        return not _is_a_count(text, end)


def _clinical_code(text: str, start: int, code: str = "") -> bool:
    """A code after a clinical coding label (ICD, CPT, LOINC, SNOMED, NDC) is not an identifier, nor
    an equipment code in a HCPCS list ("HCPCS: E1390, E0431")."""
    if re.fullmatch(r"[A-V]\d{4}", code) and "hcpcs" in before(text, start, 80):
        return True
    return bool(re.search(r"(?:icd|cpt|loinc|snomed|ndc)[-\s]?\d*\s*[:#]?\s*$", before(text, start, 16)))


# Not codes: ranges of values and decades ("70S-80S", "140s-190s", "1990s"), dosing intervals
# ("q24-48h"); nor a para alone where an obstetric history leads to it ("G1 now P1001").
NOT_CODES = re.compile(r"\d{1,3}[sS](?:-\d{1,3}[sS])?|(?:19|20)\d0[sS]|q\d{1,2}-\d{1,2}h", re.IGNORECASE)
PARA = re.compile(r"P\d{4}")
PARA_BEFORE = re.compile(r"(?:g\d{1,2}p?\d*|->|→|now|para)\s*$")


def _is_a_count(text: str, end: int) -> bool:
    """A number followed by what it counts ("10000 steps") is a quantity, not a code."""
    return bool(re.match(r"\s*(?:steps|times|people|patients|words|dollars|usd|\$)", after(text, end, 12)))
