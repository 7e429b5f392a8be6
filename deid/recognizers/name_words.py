"""The words that make or break a person's name: titles, roles, the words that are never names, and
NameWords, the dictionary evidence (census names, word frequency, clinical lists) that a token is a
name at three strengths. Shared by the name recognizers, the NER filter and name spreading.
"""

from __future__ import annotations

import re

from spacy.lang.en.stop_words import STOP_WORDS

from deid.lexicon import Lexicon
from deid.text import Case, Token

TITLES = frozenset(
    """dr dr. drs drs. doctor mr mr. mrs mrs. ms ms. miss mx prof professor sr sra srta
    rev rev. revd reverend mdm madam mme mlle herr frau dhr dhr. mevr mevr.
    det det. detective ofc ofc. officer sgt sgt. sergeant trooper deputy dep. judge doctora dra dra.""".split()
)  # then clergy, the titles of Singapore and Malaysia, France, Germany and the Netherlands, police ranks
# ("Dep. Holcomb"), a judge, and the Spanish title of a woman doctor ("doctora Castañeda")
# Mr/Ms double as clinical abbreviations (mitral regurgitation, multiple sclerosis, mental status).
AMBIGUOUS_TITLES = frozenset({"mr", "ms"})
FAMILY = frozenset(
    """husband wife son daughter mother father mom mum dad brother sister sibling grandson granddaughter
    grandmother grandfather grandma grandpa aunt uncle niece nephew cousin partner spouse fiance fiancee
    boyfriend girlfriend friend neighbor neighbour roommate caregiver guardian proxy hcp poa nok sponsor
    daughters sons brothers sisters siblings children kids grandchildren grandsons granddaughters parents
    child kid stepdaughter stepson stepmother stepfather granddad grandmom baby infant twin grandparents
    grandparent youngest oldest eldest
    carer attendant bystander parent parents dtr dtrs bf gf sis bro hubby fob""".split()
)  # the last lines: the UK "carer", the Indian "attendant" and "bystander" (the relative at the
# bedside), and the shorthand of quick notes ("dtr carol", "bf dustin", "FOB KAWIKA": the baby's father)
STAFF = frozenset(
    """interpreter pastor chaplain rn lpn cna np md nurse attending resident intern fellow pcp surgeon
    cardiologist oncologist neurologist hospitalist intensivist radiologist pathologist anesthesiologist
    pharmacist therapist dietitian nutritionist midwife doula provider physician colleague coworker
    sw aide tech technician technologist sonographer scribe cm rt pa-c crna aprn fnp lcsw licsw cde slp
    ot pharmd psychologist counselor counsellor coordinator educator navigator sitter volunteer asst
    assistant consultant registrar sho gp matron hca physio physiotherapist houseman paramedic
    nnp cnm rrt lvn emt imam rabbi chw chr
    rep representative payee liaison caseworker promotora scheduler dispatcher reviewer coach skipper
    agent supervisor sup advocate adjuster""".split()
)  # UK, Irish and Indian grades and roles: consultant, registrar, SHO, GP, matron, HCA, houseman;
# then the people of payers, agencies and teams a note names by their role ("rep Kendrick",
# "liaison renee jackson", "promotora Chayo", "Coach Black Elk"; a "rep payee" manages benefits),
# of courts and insurers, and the hospital's supervisor on duty ("Parole agent Lutz", "advocate
# Marisela", "adjuster Corinne Faith", "house sup MBAH")
PATIENT = frozenset({"patient", "pt"})
ROLES = FAMILY | STAFF | PATIENT
# After these a capitalised word is a noun phrase, not a name: "Dr. on call", "husband at bedside".
NOT_NAMES = frozenset(STOP_WORDS) | set(
    "pt pts patient family team bedside home today pgy pager pgr beeper bleep cell mobile tel fax ext campus badge yes".split()
    # the labels of a prescriber's numbers, after the name they follow ("Olga Berezovsky, MD   NPI 1427385016")
    + "npi dea".split()
    # the labels of a Spanish form ("Paciente: ...", "Fecha: ...")
    + "paciente nombre fecha".split()
    # weekdays as notes shorten them ("plays bridge on Tues"); not "Thu" or "Sun", which are names too
    + "mon tue tues wed thur thurs fri sat".split()
)
# English stop words that begin or join surnames made of words: "Two Bulls", "Many Guns", "Pretty On Top".
SURNAME_STOP_WORDS = frozenset({"two", "three", "four", "five", "many", "on", "top"})
# English word endings that names of people rarely have: "ambulating", "verbalized", "tolerated".
ENGLISH_ENDINGS = re.compile(
    r"(?:ed|ing|ly|tion|sion|ness|ment|ity|ous|ive|able|ible|ism|ize|ized|ise|ised|ful|less|ary)$"
)
# A surname at or above this rank is frequent enough to continue a name after a first name even when
# it is an English word: "Henry White", "Marcus Hall", "Darnell Price".
CONTINUE_SURNAME_RANK = 5_000


class NameWords:
    """The dictionary evidence that a token is (part of) a person's name, at three strengths."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon

    def excluded(self, tok: Token, surname_ok: bool = False) -> bool:
        """Never a name word: stop words, roles, titles, drugs and clinical abbreviations. With
        `surname_ok`, a census name that is also a drug or abbreviation ("Summers", "Love") passes."""
        low = tok.bare.lower()
        if len(low) < 2 or low in NOT_NAMES or low in ROLES or low in TITLES or role_word(low):
            return True
        if surname_ok and self.lexicon.is_census_name(low):
            return False
        return self.lexicon.is_clinical_term(low)

    def after_strong_cue(self, tok: Token) -> bool:
        """After a title or a label ("Dr Bell", "Patient: Oyelaran"): any word not plainly clinical."""
        if self.excluded(tok, surname_ok=True):
            return False
        if tok.case is Case.MIXED and tok.text[0].isupper():
            return True
        low = tok.bare.lower()
        return not self.lexicon.is_clinical(low) or self.lexicon.is_census_name(low)

    def after_weak_cue(self, tok: Token, lenient: bool) -> bool:
        """After a role, verb or greeting: the word itself must look like a name. `lenient` (family
        and patient roles, greetings) also takes rare lower-case words that are not English-shaped."""
        if self.excluded(tok):
            return False
        low = tok.bare.lower()
        lex = self.lexicon
        if tok.case is Case.MIXED and tok.text[0].isupper():
            if lex.name_likelihood(low) > 0 or (lenient and lex.is_first_name(low)):
                return True
            return lex.zipf(low) < 3.5 and not lex.is_clinical(low)
        if lex.name_likelihood(low) > 0 or (lenient and lex.is_first_name(low)):
            return True  # "PT GEORGE ...", "pt april ...": after "pt" a first name is a name
        limit = 3.6 if lenient else 3.0
        return lex.zipf(low) < limit and not lex.is_clinical(low) and not self._english_shaped(low)

    def _english_shaped(self, low: str) -> bool:
        """Ending as English words do, unless the ending is "-ed" of no English verb: "walked" and
        "cleared" are words, "khaled" and "mohammed" are names ("khal", "mohamm" are no verbs)."""
        if not ENGLISH_ENDINGS.search(low):
            return False
        if not low.endswith("ed") or len(low) > 8 or not low.isalpha():
            return True  # "spiculated", "e-signed", "clean-based"
        return self.lexicon.zipf(low[:-2]) >= 2.0 or self.lexicon.zipf(low[:-1]) >= 2.0

    def continues(self, tok: Token) -> bool:
        """The next word of a name already begun: a census first name, a frequent surname, a rare word."""
        if self.excluded(tok, surname_ok=True):
            return False
        low = tok.bare.lower()
        lex = self.lexicon
        if tok.case is Case.MIXED and not tok.text[0].isupper():
            return False
        rank = lex.surname_rank_of(low)
        if lex.name_likelihood(low) > 0 or lex.is_first_name(low):
            return True
        if rank is not None and rank <= CONTINUE_SURNAME_RANK:
            return True
        if lex.is_clinical(low):
            return False
        if ENGLISH_ENDINGS.search(low) and not self._capitalised_rare_surname(tok, rank):
            return False
        if tok.case is not Case.MIXED:
            # In ALL-CAPS or lower-case notes short rare words are mostly shorthand ("CONT VANC");
            # a long one that no dictionary knows is a name ("pt arjun venkataraman").
            return len(low) >= 6 and lex.zipf(low) < 2.5
        return lex.zipf(low) < (4.5 if not tok.text.isupper() else 3.0)

    def _capitalised_rare_surname(self, tok: Token, rank: int | None) -> bool:
        """A capitalised word in mixed-case text that is rare in English, or a census surname not
        common in English: a surname that only looks inflected ("Chaudhary", "Stirling", "Bowling")."""
        if tok.case is not Case.MIXED or not tok.text[0].isupper() or tok.text.isupper():
            return False
        zipf = self.lexicon.zipf(tok.bare.lower())
        return zipf < 3.0 or (rank is not None and zipf < 4.0)

    def surname_after_given(self, given: Token, tok: Token) -> bool:
        """The word after a census first name that began a name run, written in the same case:
        "SON CALEB JOHANSSON", "WIFE FATIMA AL-SAYED", "pt sam king". Two name-shaped words in a row
        are stronger evidence than either alone, so rarer surnames and name particles pass here."""
        lex = self.lexicon
        given_ok = (
            lex.is_first_name(given.bare)
            or lex.zipf(given.bare) < 2.5
            # a census name written as a given name in mixed case: "nurse Clarity Obi"
            or (
                given.case is Case.MIXED
                and given.text[:1].isupper()
                and lex.is_census_name(given.bare.lower())
                and lex.zipf(given.bare) < 4.0
            )
        )
        if not given_ok or not _same_case(given, tok):
            return False
        if self.excluded(tok, surname_ok=True):
            return False
        low = tok.bare.lower()
        rank = lex.surname_rank_of(low)
        if rank is not None and (lex.zipf(low) < 4.0 or rank <= 20_000):
            return not lex.is_clinical(low) or lex.name_likelihood(low) > 0
        if lex.is_clinical(low):
            return False
        parts = re.split(r"['’-]", low)
        if len(parts) > 1:  # "AL-SAYED", "O'Malley", "Ben-David": each part a particle or a name
            return all(p in NAME_PARTICLES or lex.is_census_name(p) or lex.zipf(p) < 3.0 for p in parts)
        return lex.zipf(low) < 3.0 and not ENGLISH_ENDINGS.search(low)


def capitalised_given_name(tok: Token, lexicon: Lexicon) -> bool:
    """A census first name that is also an English word, written as a name in mixed-case text:
    "Will", "Hope", "Grant" (only ever taken together with the surname after it)."""
    return (
        tok.case is Case.MIXED
        and tok.text[:1].isupper()
        and tok.text[1:].islower()
        and lexicon.is_first_name(tok.bare)
        and tok.lower not in ROLES
        and tok.lower not in TITLES
    )


def _same_case(a: Token, b: Token) -> bool:
    """Both written alike: capitalised, ALL-CAPS or lower case."""

    def shape(tok: Token) -> str:
        t = tok.text
        return "upper" if t.isupper() else "lower" if t.islower() else "title" if t[0].isupper() else "?"

    return shape(a) == shape(b) or (a.case is not Case.MIXED and a.case is b.case)


# Particles of Arabic, Dutch, Hebrew and Irish surnames written with a hyphen or apostrophe.
NAME_PARTICLES = frozenset(
    "al el abu abd ben bin bint ibn o d de da del della di dos du la le van von der den mac mc".split()
)


# Kin further off, named by the nearer relative: "great-grandson", "ex-wife", "half-brother",
# "stepsister", "godmother".
KIN_PREFIX = re.compile(r"(?:great-)*(?:ex-|half-|step-?|god)?")


def role_word(low: str) -> str:
    """The role a word names, also in "daughter-in-law", "son's" and "great-grandson"; "" if none."""
    base = low.removesuffix("-in-law").removesuffix("'s").removesuffix("’s")
    if base in ROLES:
        return base
    prefix = KIN_PREFIX.match(base)
    kin = base[prefix.end() :] if prefix else ""
    return kin if prefix and prefix.end() and kin in FAMILY else ""
