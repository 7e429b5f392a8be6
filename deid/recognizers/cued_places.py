"""Places of care, school and work named without a word that says so (Safe Harbor B), found from
the words before them instead.

Labs, imaging centres and pharmacies follow the verb of a test or a prescription ("trough drawn at
Quest", "cultures from LabPLUS", "scripts filled at Hy-Vee"); as for an employer
(facilities.EmployerRecognizer), only capitalised words are taken, and a department ("sent to
Microbiology") names no place. Home-care agencies follow the service they give ("Agency Bayada",
"CARERS FROM CAREWATCH"), in any letter case, their name a word that is neither common English nor
clinical. Schools are named by their level after a school cue ("teacher at
jefferson middle"), which ends the name in any letter case.
"""

from __future__ import annotations

import re

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.recognizers.base import RegexRecognizer
from deid.recognizers.facilities import GENERIC, PLACE_WORD, PROGRAMMES, STOPPERS, EmployerRecognizer
from deid.recognizers.name_words import NOT_NAMES, ROLES
from deid.text import Case, case_at
from deid.types import LOCATION

# Departments a specimen, scan or script goes to inside any hospital: they name no place. Written here
# (clinical vocabulary, not names) since ICD-10-CM, the source of medical_words, has none of them.
DEPARTMENTS = frozenset(
    """microbiology micro biochemistry haematology hematology cytology virology serology immunology
    blood bank transfusion triage resus theatre theatres ward wards pharmacy dispensary lab labs
    laboratory radiology imaging outpatients clinic frontdesk reception phlebotomy""".split()
)


class ResultPlaceRecognizer(EmployerRecognizer):
    """LOCATION: the lab, imaging centre or pharmacy after the verb of a test or a prescription."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "result_place",
            r"(?i:\b(?:drawn|collected|processed|sent(?:\s+out)?|cultures?|specimens?|samples?|swabs?|"
            r"filled|dispensed|scripts?|refills?|mri|ct|pet|ultrasound|echo|ecgs?|ekgs?|x-?rays?)"
            r"\s+(?:at|to|from|by|via)\s+)"
            rf"(?P<phi>{PLACE_WORD}(?:[ ](?:{PLACE_WORD}|of|&)){{0,3}})",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        words = re.findall(r"[^\W\d_]+", text[start:end])
        if words and all(self.lexicon.is_clinical(w) or w.lower() in DEPARTMENTS for w in words):
            return False  # "sent to Microbiology", "swabs from Wound"
        return super().validate(text, start, end, pattern)


class SupplierRecognizer(RegexRecognizer):
    """LOCATION: the one-word name of a supplier, payer or service after the words of a service
    given through it: "PA submitted via eviCore", "NEMT through ModivCare", "Dexcom goes through
    Edgepark", "copay on Silverscript". The word is no English, clinical,
    census or place word, and shaped like a name (capitalised, or two capitalised parts run together
    as brands write them: "WakeMed", "eviCore"), not an acronym or a unit ("KCl", "DTaP")."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "supplier",
            r"(?i:\b(?:via|through|thru|delivered\s+by|supplied\s+by|provided\s+by|set\s+up\s+with|"
            r"copay\s+on|billed\s+by|denied\s+by|approved\s+by|authorized\s+by|rejected\s+by)\s+(?:the\s+)?)"
            r"(?P<phi>[A-Z][a-z]+(?:[A-Z][a-z]+)*|[a-z]{2,5}[A-Z][a-z]+)\b(?![\s-]+[A-Z]|['’]s)",
            0.55,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        low = text[start:end].lower()
        lex = self.lexicon
        return not (
            lex.zipf(low) >= 3.0
            or lex.is_clinical(low)
            or lex.is_census_name(low)
            or lex.is_place_word(low)
            or low in NOT_NAMES
            or low in SOFTWARE
        )


class AirAmbulanceRecognizer(RegexRecognizer):
    """LOCATION: an air ambulance service by its brand, two words run together as they write it
    ("LifeNet", "SkyLife", "AirCare 2", "MedFlight", "LifeStar"), where the note speaks of flying or
    transport: "LifeNet air transport", "Transport: AirCare 2 rotor", "transferred by SkyLife"."""

    ENTITY = LOCATION
    FLAGS = 0
    BRAND = r"[A-Z][a-z]+(?:Flight|Life|Star|Net|Care|Link|Air|Evac|Med|Guard|Trans)(?:\s+(?:[IVX]{1,3}|\d{1,2})\b)?"
    PATTERNS = (
        (
            "air_after",
            rf"\b(?P<phi>{BRAND})(?=[\s,(/-]+(?:\d+\s+)?(?i:\(?rotor|fixed[- ]wing|air\b|helicopter|critical\s+care|"
            r"transport|crew|flight|team|aircraft|eta\b))",
            0.6,
        ),
        (
            "air_before",
            rf"(?i:\b(?:transport(?:ed)?|flown|airlifted|air\s*lifted|medevac(?:'?d)?|by|via)\s*:?\s+)(?P<phi>{BRAND})\b",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        return text[start:end].split()[0].lower() not in SOFTWARE  # "monitoring via CareLink"


# Portals and calling software that messages are sent "via": no one's place.
SOFTWARE = frozenset(
    "mychart facetime wechat whatsapp zoom teams doximity powershare carelink epic airview myair".split()
)


class SchoolRecognizer(RegexRecognizer):
    """LOCATION: a school named by its level alone after a word that says a school follows, in any
    letter case: "school is glen waverley primary", "teacher at Jefferson Middle", "pupil at
    Northfield Infants". The level word ends the name, so the words before it are the name."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "school",
            r"\b(?:school\s+is|attends|pupil\s+at|teach(?:er|es)\s+at|student\s+at|goes\s+to|"
            r"kindergarten\s+at|(?:grade|year)\s+\d{1,2}\s+at)\s+"
            r"(?P<phi>[^\W\d_][\w'’.-]*(?:\s[^\W\d_][\w'’.-]*){0,3}?\s"
            r"(?:primary|middle|elementary|high|junior|infants)(?:\s+school)?)\b",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = text[start:end].lower().split()
        name = words[: -2 if words[-1] == "school" else -1]
        if name[0] in STOPPERS or name[0] in GENERIC:
            return False  # "goes to the local high school"
        return not all(self.lexicon.is_clinical(w) or w in NOT_NAMES or w in DEPARTMENTS for w in name)


class CareAgencyRecognizer(RegexRecognizer):
    """LOCATION: a home-care, hospice or infusion agency after the service it gives, in any letter
    case: "Agency Bayada 305-555-...", "HH FROM AMEDISYS", "carers from Carewatch qds". Its name is
    one or two words, each rarer than COMMON_ZIPF (word frequency from wordfreq) and not clinical, so
    "agency nurse", "carers from Monday" and "hospice at home" name no place."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "agency",
            r"\b(?:agency|carers?|caregivers?|home\s+health|hh|hospice|home\s+infusion)"
            r"(?:\s+(?:is|from|via|with|by))?\s*:?\s+(?P<phi>[^\W\d_][\w'’&]*(?:\s[^\W\d_][\w'’&]*)?)",
            0.6,
        ),
    )
    COMMON_ZIPF = 3.0

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        out = []
        for res in super().analyze(text, entities, nlp_artifacts):
            words = text[res.start : res.end].split()
            if len(words) == 2 and not self._name_word(words[1]):
                words = words[:1]  # "Bayada on-call", "CAREWATCH QDS": the name is its first word
            out.append(RecognizerResult(LOCATION, res.start, res.start + len(" ".join(words)), res.score))
        return out

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        return self._name_word(text[start:end].split()[0])

    def _name_word(self, word: str) -> bool:
        low = word.lower()
        if len(low) <= 3 or low in GENERIC or low in STOPPERS or low in NOT_NAMES:
            return False  # a role or a frequency ("RN", "LPN", "QDS"), or words that name no place
        lex = self.lexicon
        return not lex.is_place_word(low) and lex.zipf(low) < self.COMMON_ZIPF and not lex.is_clinical(low)


# Words before "member" that name a kind of cover, a letter's heading or a group, not a plan.
NOT_PLANS = frozenset(
    "ins insurance plan part medigap supplement appeal expedited group team staff board".split()
)


class HealthPlanRecognizer(RegexRecognizer):
    """LOCATION: a health plan named before its member's number, as benefit lines write it: "Part D
    through Wellcare, member W4419982301", "OHP (CareOregon) member YX44801291", "Blue Shield of
    California member XEP902114563", "pt has ucare, member id uc83014772". One to four capitalised
    words ("of" may join them), or one rare lower-case word in a lower-case note; not a programme
    that names no one's plan ("Medicaid member"), nor words that name no place ("plan member")."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "plan_member",
            r"(?:^|(?<=[\s(:]))(?P<phi>[A-Z][\w'’&-]*(?:\s+(?:of\s+)?[A-Z][\w'’&-]*){0,3}|[a-z]{4,})"
            r"\)?,?\s+(?i:member)\b",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        words = [w for w in text[start:end].split() if w != "of"]
        lex = self.lexicon
        lows = [w.lower() for w in words]
        if any(
            low in GENERIC or low in STOPPERS or low in NOT_NAMES or low in PROGRAMMES or low in NOT_PLANS
            for low in lows
        ):
            return False
        if text[start:end].isupper() or case_at(text, start) is Case.UPPER:
            return False  # an acronym or a line of capitals: a club, a label, a credential ("GSA", "LMSW")
        if words[0].islower():
            return len(words) == 1 and lex.zipf(lows[0]) < 3.0 and not lex.is_clinical(lows[0])
        # a name of clinical or common words alone is a kind of cover ("Medical Assistance member")
        return not all(lex.is_clinical(low) or lex.zipf(low) >= 4.0 or lex.is_place_word(low) for low in lows)


class TheNamedPlaceRecognizer(RegexRecognizer):
    """LOCATION: a place known by one name with "the", after a place preposition: "in the Mater",
    "at The Alfred", "from the Bronx", "at the Y". The name is capitalised mid-sentence, and neither a common
    nor a clinical word nor a department ("in the ED", "to the Clinic", "in the Spring")."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "the_named",
            r"\b(?i:at|in|to|from|into)\s+(?P<phi>(?:the|The)\s+[A-Z][a-z]{2,})\b(?![ ](?:[A-Z]|\d)|[-'’])",
            0.6,
        ),
        # the YMCA (and YWCA, YMHA), by its initials or as "the Y", "the L Street Y"; not the Y
        # chromosome, a Y-graft or a Y-shaped incision
        ("ymca", r"\b(?P<phi>Y[MW][CH]A)\b", 0.7),
        (
            "the_y",
            r"\b(?i:at|in|to|from|into|by)\s+(?:the|The)\s+(?P<phi>(?:[A-Z][a-z]+[ ])?Y)\b"
            r"(?![-'’]|[ ](?i:chromosome|axis|graft|stent|incision|junction|shape|plasty))",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        if pattern in ("ymca", "the_y"):
            return True
        word = text[start:end].split()[-1]
        low = word.lower()
        lex = self.lexicon
        if low in GENERIC or low in NOT_NAMES or low in DEPARTMENTS or lex.is_place_word(low):
            return False  # "the Clinic", "the ward"; a country or a state is no Safe Harbor place
        if lex.is_clinical(low) or lex.is_clinical_term(low) or low in lex.foreign_months:
            return False
        if low in ROLES or low.endswith(("ology", "ics")):
            return False  # "to the Hospitalist service", "from the Cardiology floor"
        return lex.is_town(low) or lex.zipf(low) < (4.5 if lex.is_census_name(low) else 3.5)


class PoliceRecognizer(RegexRecognizer):
    """LOCATION: a town's police, fire or ambulance service by its acronym, before one of its
    officers or units or what they do ("SFPD ofc. badge 2214", "APD Det. Salas", "DPD notified",
    "DFD Medic 22", "CCFD Rescue transported"), or after "brought by" ("brought by PPB").
    The cue is needed: "APD" alone is also automated peritoneal dialysis; and before a weak cue
    ("notified", "report") a dialysis kind is kept even as a town's police ("TPD welfare check")."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        # before an officer, a unit or custody: no clinical abbreviation is followed by these
        (
            "police",
            r"\b(?P<phi>[A-Z]{1,4}(?:PD|FD|PB|EMS))\b(?=[ ]+(?i:ofc|officer|officers|det|detective|sgt|sergeant|"
            r"cpl|badge|sid|custody|medic|rescue|engine|ladder|ambulance))",
            0.65,
        ),
        # before what a service does, or after "brought by": not a clinical abbreviation there
        (
            "police_weak",
            r"\b(?P<phi>[A-Z]{1,4}(?:PD|FD|PB|EMS))\b(?=[ ]+(?i:hold|report|case|escort|present|on\s+scene|"
            r"notified|welfare|responded|transported))",
            0.65,
        ),
        ("brought_by", r"\b(?i:brought\s+(?:in\s+)?by)\s+(?P<phi>[A-Z]{1,4}(?:PD|FD|PB|EMS))\b", 0.65),
    )
    # peritoneal dialysis by its kinds, and lung disease: no services
    CLINICAL = frozenset({"APD", "CAPD", "CCPD", "IPD", "NIPD", "TPD", "COPD"})

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:
        word = text[start:end]
        if pattern == "police":
            return word != "COPD"
        return word not in self.CLINICAL and not self.lexicon.is_clinical_term(word)


class UnionLocalRecognizer(RegexRecognizer):
    """LOCATION: a labour union's local by its number, after the union's initials or where the
    text says it is a union's: "IBEW Local 103", "ILWU Local 13", "union rep (Local 42)". Not a
    local anaesthetic's strength ("Local 1% lidocaine") or a size."""

    ENTITY = LOCATION
    FLAGS = 0
    PATTERNS = (
        (
            "union_local",
            r"\b(?P<phi>(?:[A-Z]{2,6}[ ])?(?:Local|LOCAL)[ ]\d{1,4})\b(?![.,]?\d|[ ]?(?i:%|mg|ml|cm|mm|units?)\b)",
            0.6,
        ),
    )

    def validate(self, text: str, start: int, end: int, pattern: str) -> bool:  # noqa: ARG002
        initials = text[start:end].split()[0]
        if initials.isupper() and initials != "LOCAL" and not self.lexicon.is_clinical_term(initials):
            return True
        return re.search(r"\bunion\b", text[max(0, start - 40) : start], re.IGNORECASE) is not None


class DedicationRecognizer(RegexRecognizer):
    """LOCATION: a church, hospital or school known by its religious dedication alone, in any letter
    case: "Our Lady of Guadalupe", "seen at Good Sam", "Sacred Heart", "Holy Cross", "All Saints".
    These phrases name institutions (their own words are not clinical ones); the rest of a longer
    name ("Sacred Heart Medical Center") is taken by the facility rules and deid.place_runs."""

    ENTITY = LOCATION
    PATTERNS = (
        (
            "dedication",
            r"\b(?P<phi>our\s+lady\s+of(?:\s+the)?\s+[a-z][\w'’-]+(?:\s+(?:of\s+)?[A-Z][\w'’-]+){0,2}"
            r"|sacred\s+heart|holy\s+(?:cross|family|name|redeemer|spirit|trinity|rosary|innocents|angels)"
            r"|good\s+(?:shepherd|samaritan|sam)|blessed\s+sacrament|immaculate\s+(?:conception|heart)"
            r"|christ\s+the\s+king|all\s+saints|divine\s+(?:savior|saviour|providence)"
            r"|mount\s+carmel|mt\.?\s+carmel|mount\s+sinai|mt\.?\s+sinai)\b",
            0.65,
        ),
    )
