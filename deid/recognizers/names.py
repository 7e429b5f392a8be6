"""Names of patients, relatives and staff found by their context (Safe Harbor A): after a title,
role, label, verb or greeting, before a credential, and in "Surname, First" order.

How much evidence a word needs depends on the cue: after "Dr" or "Patient:" any word that is not
plainly clinical is a name; after "pt" or "son" a name word must look like one (census name, rare
word, capitalised in mixed-case text); and once a run has begun, the next word is a name when it is
a census first name or a frequent surname ("Henry White", "pt marcus hall").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from enum import Enum
from typing import ClassVar

from presidio_analyzer import RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts

from deid.lexicon import Lexicon
from deid.prefilter import Scanner
from deid.recognizers.base import LexiconRecognizer
from deid.recognizers.care_places import SPECIALTY
from deid.recognizers.dates import MONTH, WEEKDAY
from deid.recognizers.name_words import (
    AMBIGUOUS_TITLES,
    ENGLISH_ENDINGS,
    FAMILY,
    PATIENT,
    ROLES,
    STAFF,
    TITLES,
    NameWords,
    capitalised_given_name,
    role_word,
)
from deid.text import Case, Token, is_wrap, tokenize
from deid.types import NAME

DAY_NAME = re.compile(rf"{WEEKDAY}s?")
CALENDAR = re.compile(rf"{WEEKDAY}|{MONTH}")
GREETINGS = frozenset({"hi", "hello", "dear", "hey", "thanks", "thank"})
# A writer introducing themselves after a greeting: "hi its priya (fy2)", "hey it's meg", "hi dr
# kapoor this is crystal from willows" (the greeting may have its addressee between).
INTRODUCTION = Scanner(
    re.compile(r"\b(?:hi|hey|hello)\b[^.?!\n]{0,25}?\b(?:it'?s|its|it\s+is|this\s+is)\s+", re.IGNORECASE)
)
# Cues are found once per text; a cue applies to the word its match ends at. Scanners: the long
# alternations are tried only where one of their words is.
VERB_CUE = Scanner(
    re.compile(
        r"\b(?:seen|evaluated|examined|signed|dictated|transcribed|reviewed|discussed|called|paged|page|spoke|"
        r"spoken|talked|consulted|consult|d/w|dw|per|cc|attn|attention|c/w|contacted|notified|informed|"
        r"messaged|texted|emailed|visited|accompanied|covered|covering|supervised|cosigned|relieved|"
        r"says|said|asks|asked|told|tells|wrote|writes|explained|according\s+to|re(?=\s*:)(?!\s*:\s*(?-i:[A-Z]{2,6}\s+[a-z])))"
        r"(?:\s+(?:by|with|to|w/|from))?\s*:?\s*|\b(?:covering|covered|cross-covering|signing\s+out)\s+for\s+"
        # who did what to a report or a specimen: "Referred by: KEALOHA", "Confirmed by STRONG, HOLLIS"
        r"|\b(?:referred|scored|confirmed|interpreted|read|verified|completed|collected|entered|ordered|"
        r"approved|attested|witnessed|prepared|edited|performed|received|reported|released|requested)"
        r"\s+by\s*:?\s*"
        # who a message or a handover is from: "text from raj", "handover from jens", "q from deb"
        r"|\b(?:handover|handoff|hand-off|sign-?out|s/o|text|message|msg|call|page|update|q|question|email|"
        r"voicemail|vm)\s+from\s+",
        re.IGNORECASE,
    )
)
LABEL_CUE = Scanner(
    re.compile(
        r"\b(?:attending|pcp|resident|fellow|intern|surgeon|provider|physician|author|signed|"
        r"electronically\s+signed(?:\s+by)?|dictated\s+by|referring(?:\s+(?:md|physician|provider))?|"
        r"contact|emergency\s+contact(?:\s*#?\s*\d)?|nok|next\s+of\s+kin|patient(?:\s+name)?|pt\s+name|name|infant|mother|"
        r"father|rn|nurse|np|pa|cc|from|to|hcp|proxy|guardian|poa|caregiver|tech|technologist|reader|"
        r"scribe|sonographer|endoscopist|anesthesia|anesthesiologist|performed\s+by|ordering|interpreter|"
        r"case\s+manager|sw|social\s+worker|chaplain|witness|cosigner|surname|forename|deceased|decedent|"
        # who a form or a meeting is about or with: "Veteran: REDHORSE, WALLACE T", "Present: Margie, ..."
        r"present|attendees|participants|student|veteran|client|donor|claimant|subscriber|insured|member|"
        r"beneficiary|"
        # an operation's team, a transfusion's recipient, a claim's parties
        r"recipient|circulator|scrub|first\s+assist(?:ant)?|assist(?:ant)?|proceduralist|adjuster|guarantor|"
        r"policy\s*holder|"
        # callers, candidates, people in custody, and the Spanish labels of a bilingual form
        r"caller|candidate|offender|detainee|inmate|paciente|nombre|madre|padre|"
        r"name\s+given\s+by\s+family|created\s+by|"
        # who signs a form: "Signature: A Farouk", "Parent signature: D. Two Bulls"
        r"signature|(?:parent|guardian|patient|provider|physician|examiner)(?:'s)?\s+signature)\s*:\s*"
        # a letter's sign-off: the name is on the next line ("Sincerely,\nMaria Lopez, MD")
        r"|\b(?:sincerely|regards|best\s+wishes|best|thanks|thank\s+you|cordially|respectfully|warmly),?[ \t]*\n[ \t]*"
        # a name given in words: "my name is Siiri", "her maiden name was Clark", "calls me Jim"
        # (each branch begins with a word, so that deid.prefilter tries the pattern only where one does)
        r"|\b(?:(?:first|last|maiden|full|middle|given|family|sur)\s*name|name)\s+(?:is|was)\s+|\b(?:calls?|called)\s+me\s+"
        r"|\bnamed\s+(?:him|her|them|the\s+baby)\s+",
        re.IGNORECASE,
    )
)
# The kinds of anaesthesia written after an "Anesthesia:" label, where an anaesthetist's name may be too.
ANAESTHESIA_LABEL = re.compile(r"\b(?:anesthesia|anaesthesia|anesth|anaes)\s*:\s*\Z", re.IGNORECASE)
ANAESTHETIC_KINDS = frozenset(
    "general mac spinal epidural regional local sedation moderate monitored geta".split()
)
# What a user name is written after: "Transcribed by: lfaalogo", "typed by jm2".
USER_NAME_CUE = re.compile(
    r"(?:transcribed|dictated|typed|signed|entered|printed|filed|edited)\s+by\s*:?\s*\Z", re.I
)
CREDENTIAL_WORDS = (
    r"MD|M\.D\.|DO|D\.O\.|RN|R\.N\.|NP|N\.P\.|PA-C|PA|P\.A\.|Ph\.D\.|LPN|CNA|PhD|PharmD|APRN|FNP|FNP-C|FNP-BC|NNP-BC|CRNA|LCSW|LICSW|"
    r"LMHC|MSW|DDS|DMD|DPM|MBBS|FACP|FACC|FACS|RD|OTR|DPT|CNM|NNP|ANP|ACNP|AGNP|PMHNP|BSN|MSN|DNP|RRT|"
    r"CCRN|RN-BC|PsyD|SLP|CCC-SLP|RDMS|RT\(R\)|CDCES|CDE|CCM|FRCPC|FRCP|FRCS|MRCP|FRACP|FHRS|FACEP|FAAP|"
    # pharmacists, first assistants, surgical and sleep technologists, laboratory scientists, addiction
    # counsellors, therapists, dietitians, lactation consultants, and the fellowships and memberships
    # written after a consultant's name
    r"RPh|R\.Ph\.|CPhT|RNFA|LMSW|LSW|LMFT|LPC|RDN|LDN|IBCLC|CRNP|FASE|FSCAI|FAHA|MRCGP|MRCS|FRCR|"
    r"FRCA|MRCPCH|RPSGT|CST|MLS|LADC|CADC|LCADC|LPCC|LCPC|LISW|LISW-S|"
    # vascular and sleep physicians' boards, wound nurses, anticoagulation pharmacists
    r"RPVI|RVT|D-ABSM|CWOCN|CWON|CWCN|CACP"
)
# A credential after a name, not a label before one ("Discharging NP: Laura Kim").
# (Not followed by a letter or digit: a word boundary would need one after "M.D.".)
CREDENTIALS = re.compile(rf"\s*\.?\s*,?\s*(?:{CREDENTIAL_WORDS})(?!\w)(?!\s*:)")
# In all-lower-case text only credentials that are not also English words.
LOWER_CREDENTIALS = re.compile(
    r"\s*\.?\s*,?\s*(?:md|rn|np|pa-c|lpn|cna|rrt|lcsw|licsw|crna|aprn|fnp|dnp|msw|phd|pharmd)\b(?!\s*:)"
)
# What ends a clause right after a word: a stop, a comma, a bracket, an arrow or dash, the end of the line.
CLAUSE_END = re.compile(r"[ \t]*(?:[.,;:)\]]|->|[-–—]+(?:\s|$)|$)", re.MULTILINE)


# The comma between a surname and a given name, as notes and exports write it.
NAME_COMMAS = frozenset({", ", " , ", ","})
# A generational suffix after a surname: "Jr.", ", Sr", "III" (not "IV", a route: "Smith IV").
GENERATION = re.compile(r",?[ ](?:Jr|Sr|JR|SR)\b\.?|[ ](?:II|III)\b")


class Cue(Enum):
    TITLE = "title"
    LABEL = "label"
    CREDENTIAL = "credential"
    ROLE = "role"
    GREETING = "greeting"
    VERB = "verb"


SCORES: dict[Cue, float] = {
    Cue.TITLE: 0.95,
    Cue.LABEL: 0.9,
    Cue.CREDENTIAL: 0.9,
    Cue.ROLE: 0.85,
    Cue.GREETING: 0.8,
    Cue.VERB: 0.8,
}


class NameWordsRecognizer(LexiconRecognizer):
    """A NAME recognizer with the dictionary evidence of NameWords at hand."""

    ENTITIES: ClassVar[tuple[str, ...]] = (NAME,)

    def __init__(self, lexicon: Lexicon) -> None:
        super().__init__(lexicon)
        self.words = NameWords(lexicon)


class ContextNameRecognizer(NameWordsRecognizer):
    """Names after a title, role, label, verb or greeting, or before a credential."""

    SCORES: ClassVar[dict[Cue, float]] = SCORES

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        tokens = tokenize(text)
        labels = {m.end() for m in LABEL_CUE.finditer(text)}
        verbs = {m.end() for m in VERB_CUE.finditer(text)}
        intros = {m.end() for m in INTRODUCTION.finditer(text)}
        results: list[RecognizerResult] = []
        for i, tok in enumerate(tokens):
            cue = self._cue_before(text, tokens, i, labels, verbs, intros)
            if cue is not None:
                run = self._name_run(text, tokens, i, cue)
                if run:
                    results.append(_result(text, tokens, run, SCORES[cue[0]]))
            credential = LOWER_CREDENTIALS if tok.case is Case.LOWER else CREDENTIALS
            if credential.match(text, tok.end) and not _is_credential_token(tok):
                run = self._run_backwards(text, tokens, i)
                if run:
                    results.append(_result(text, tokens, run, SCORES[Cue.CREDENTIAL]))
        return results

    def _cue_before(
        self, text: str, tokens: Sequence[Token], i: int, labels: set[int], verbs: set[int], intros: set[int]
    ) -> tuple[Cue, str] | None:
        """The cue before token i and the word that gave it, or None. `labels`, `verbs` and
        `intros` are the offsets where label, verb and introduction cues end."""
        start = tokens[i].start
        if start in labels:
            return Cue.LABEL, ""
        if start in intros:
            return Cue.GREETING, ""
        if i == 0:
            return None
        prev = tokens[i - 1]
        gap = text[prev.end : tokens[i].start]
        # a line wrapped between the cue and the name, unless a heading starts the next line
        heading = text.startswith(":", tokens[i].end)
        if prev.lower in TITLES or (prev.lower + ".") in TITLES:
            wrapped = not heading and is_wrap(text, prev.end + (gap[:1] == "."), tokens[i].start)
            if (gap.strip(" .") == "" and "\n" not in gap) or wrapped:
                if prev.lower in AMBIGUOUS_TITLES and not self._plausible_after_mr(prev, tokens[i]):
                    return None
                return Cue.TITLE, prev.lower
        role = role_word(prev.lower)
        wrapped = not heading and is_wrap(text, prev.end, tokens[i].start)
        if role and ((re.fullmatch(r"\s*[,:(]?\s*", gap) and "\n" not in gap) or wrapped):
            return Cue.ROLE, role
        if prev.lower in GREETINGS and re.fullmatch(r",?\s+(?:you,?\s+)?", gap):
            return Cue.GREETING, prev.lower
        if start in verbs:
            return Cue.VERB, ""
        return None

    def _plausible_after_mr(self, title: Token, tok: Token) -> bool:
        if title.case is Case.MIXED and title.text[0].isupper() and title.text[1:].islower():
            return tok.text[0].isupper()
        low = tok.bare.lower()
        lex = self.lexicon
        # in lower case, a surname the census lacks, rarer than any grade or valve word: "mr hussain"
        rare = (
            title.text.islower()
            and tok.text.islower()
            and lex.zipf(low) < 3.5
            and not lex.is_clinical(low)
            and not ENGLISH_ENDINGS.search(low)
        )
        return lex.name_likelihood(tok.bare) > 0 or rare

    def _first_word(self, text: str, tok: Token, cue: tuple[Cue, str]) -> bool:
        kind, word = cue
        if kind is Cue.ROLE and _is_credential_token(tok):
            return False  # "RN, CDCES": a second credential, not a name
        if kind is Cue.ROLE and self._word_compound(tok):
            return False  # "Agent Orange-associated DM2": an adjective made of a word, not a surname
        if kind is not Cue.TITLE and SPECIALTY.search(tok.lower):
            return False  # "recipient: cardiology clearance", "discussed with Neurology"
        if (
            kind is Cue.LABEL
            and tok.lower in ANAESTHETIC_KINDS
            and ANAESTHESIA_LABEL.search(text, max(0, tok.start - 16), tok.start)
        ):
            return False  # "ANESTHESIA: General endotracheal", "Anesth: MAC": the kind, not the anaesthetist
        if kind in (Cue.TITLE, Cue.LABEL):
            return self.words.after_strong_cue(tok)
        if kind is Cue.VERB and tok.case is Case.MIXED and not tok.text[0].isupper():
            # a line that uses capitals would give a name one ("confirmed by appendiceal orifice",
            # "seen by podiatry"), but a user name is lower case: "Transcribed by: lfaalogo"
            if not USER_NAME_CUE.search(text, max(0, tok.start - 24), tok.start):
                return False
        if (
            kind is Cue.VERB
            and capitalised_given_name(tok, self.lexicon)
            and not CALENDAR.fullmatch(tok.lower)
        ):
            return True  # a given name that is also a word, capitalised after "spoke with": "Marcus", "Hope"
        if kind is Cue.ROLE and word in STAFF and _is_initials(tok):
            # "RN KL", "tech jm": initials, unless a word or abbreviation ("RN IV", "RN TO")
            return not self.words.excluded(tok) and not self.lexicon.is_clinical(tok.text)
        lenient = kind is Cue.GREETING or word in FAMILY or word in PATIENT
        return (
            self.words.after_weak_cue(tok, lenient=lenient)
            or (kind is Cue.ROLE and word in FAMILY | STAFF and self._capitalised_after_role(tok))
            or (kind is Cue.ROLE and word in STAFF and self._given_name_in_lower_case(tok))
        )

    def _word_compound(self, tok: Token) -> bool:
        """A hyphenated word ending in an English adjective or participle no census lists:
        "Orange-associated", "Lyme-related" (not "Smith-Manning", whose end is a surname)."""
        if "-" not in tok.bare:
            return False
        last = tok.bare.rsplit("-", 1)[1].lower()
        return ENGLISH_ENDINGS.search(last) is not None and not self.lexicon.is_census_name(last)

    def _given_name_in_lower_case(self, tok: Token) -> bool:
        """A colleague's given name in a lower-case line, where no capital marks it: "ep fellow
        yusuf", "rn hope"; not a frequent or clinical word ("sw referral placed")."""
        low = tok.bare.lower()
        lex = self.lexicon
        return (
            tok.case is Case.LOWER
            and not self.words.excluded(tok)
            and (lex.is_first_name(low) or lex.zipf(low) < 3.5)
            and lex.zipf(low) < 4.0
            and not lex.is_clinical(low)
            and not ENGLISH_ENDINGS.search(low)
        )

    def _capitalised_after_role(self, tok: Token) -> bool:
        """A capitalised word after a relative or a colleague in mixed-case text: "his son Nico",
        "WOC nurse Pilar", "dad Yaw", "husband Ray", "RN Hope"; a word this capitalised mid-sentence
        is their name if it is a given name, or else neither a frequent nor a clinical word ("daughter
        Present", "son Lives" stay unread)."""
        low = tok.bare.lower()
        zipf = self.lexicon.zipf(low)
        return (
            tok.case is Case.MIXED
            and tok.text[0].isupper()
            and not tok.text.isupper()
            and not self.words.excluded(tok, surname_ok=True)  # "husband Ray", though "ray" is clinical
            and not _is_credential_token(tok)
            and not ENGLISH_ENDINGS.search(low)
            and not low.endswith("ery")  # "Nursery", "Surgery"
            and not SPECIALTY.search(low)  # "MD, Urology"
            # a medical word only when rare enough to be a name as well: "Pilar", "Yaw"
            and (self.lexicon.is_first_name(low) or zipf < (3.5 if self.lexicon.is_clinical(low) else 4.5))
        )

    def _name_run(self, text: str, tokens: Sequence[Token], i: int, cue: tuple[Cue, str]) -> list[int]:
        run: list[int] = []
        for j in range(i, min(i + 4, len(tokens))):
            tok = tokens[j]
            if run and not adjacent(text, tokens[j - 1], tok):
                break
            if (not run and self._first_word(text, tok, cue)) or (run and self._continues(tokens, run, tok)):
                run.append(j)
            elif not run and self._given_and_surname(text, tokens, j, cue):
                run += [j, j + 1]  # "AIDE PRECIOUS MBEKI": a given name is known by its surname
                break
            elif not run and self._given_name_alone(text, tok, cue):
                run.append(j)
                break
            elif _is_initial(text, tok) or (
                not run and cue[0] in (Cue.TITLE, Cue.LABEL) and _bare_initial(text, tokens, j)
            ):
                # "Dr S. McAlister", and "Dr S McAlister" as British notes write it; "Signature: A Farouk"
                run.append(j)
            else:
                break
            if tok.text.endswith(("'s", "’s")):
                break
        while (
            run
            and _is_initial(text, tokens[run[-1]])
            and len(run) > 1
            and not _is_initial(text, tokens[run[0]])
        ):
            run.pop()  # "Dr Smith A" : a trailing single letter is more likely a grade or unit
        if cue[0] is Cue.LABEL and len(run) == 1 and _bare_initial(text, tokens, run[0]):
            return []  # a letter alone after a label names no one: "To: A Team", "Patient: A lot"
        # (the given name after a labelled surname's comma, "Patient: Oyelaran, Babatunde", is taken
        # with every other surname's by deid.beside_names.given_names_after_surnames)
        return run

    def _continues(self, tokens: Sequence[Token], run: list[int], tok: Token) -> bool:
        if DAY_NAME.fullmatch(tok.lower) or SPECIALTY.search(tok.lower):
            return False  # "Dr. Patel Monday", "Dr. Lee Cardiology"
        first = tokens[run[0]]
        if tok.case is Case.MIXED and tok.text.islower() and first.text.islower():
            # a name begun in lower case goes on in lower case: "pcp is dr angela brown (BHCHP)"
            tok = replace(tok, case=Case.LOWER)
        if self.words.continues(tok):
            return True
        return len(run) == 1 and self.words.surname_after_given(tokens[run[0]], tok)

    def _given_and_surname(self, text: str, tokens: Sequence[Token], j: int, cue: tuple[Cue, str]) -> bool:
        if cue[0] not in (Cue.ROLE, Cue.VERB) or j + 1 >= len(tokens):
            return False
        given, nxt = tokens[j], tokens[j + 1]
        if not adjacent(text, given, nxt):
            return False
        if self.words.excluded(given) and not capitalised_given_name(given, self.lexicon):
            return False
        if given.case is Case.MIXED and not given.text[0].isupper():
            return False
        low = nxt.bare.lower()
        surname = self.lexicon.surname_rank_of(low) is not None or self.lexicon.zipf(low) < 3.0
        return surname and self.words.surname_after_given(given, nxt)

    def _given_name_alone(self, text: str, tok: Token, cue: tuple[Cue, str]) -> bool:
        """A given name that is also an English word, alone between its cue and the end of a clause:
        "(dr will)", "rn hope ->", "PER SLP HOPE.", "Thanks, Ray"; or a rare word so placed ("surgeon
        hamid, asst ..."). The word does not go on as a sentence would ("dr will call", "son may
        need"), so it is the name the cue announces."""
        kind, word = cue
        if kind not in (Cue.TITLE, Cue.ROLE, Cue.GREETING) or len(tok.bare) < 3 or tok.bare != tok.text:
            return False
        low = tok.lower
        lex = self.lexicon
        rare = lex.zipf(low) < 3.6 and not lex.is_clinical(low) and not ENGLISH_ENDINGS.search(low)
        if lex.is_first_name(low):  # also a stop word: "will", "may"
            if low in ROLES or low in TITLES or low in GREETINGS or role_word(low):
                return False
        elif not rare or self.words.excluded(tok):
            return False
        if kind is Cue.ROLE and (word in PATIENT or lex.is_clinical_term(low)):
            return False  # "pt" is also physical therapy: "PT MAY." is an order, not a name
        if tok.case is Case.MIXED and (not tok.text[0].isupper() or tok.text.isupper()):
            return False  # in mixed case a name is capitalised, and "(MAC," is an acronym
        return CLAUSE_END.match(text, tok.end) is not None

    def _run_backwards(self, text: str, tokens: Sequence[Token], i: int) -> list[int]:
        """The name before a credential: "Maria T. Alvarez, MD", "King, Tyrone MD", "J.M., RRT"."""
        run: list[int] = []
        j = i
        while j >= 0 and len(run) < 4:
            tok = tokens[j]
            if run and not re.fullmatch(r"\.? |\.|, ", text[tok.end : tokens[j + 1].start]):
                break
            first = not run
            if SPECIALTY.search(tok.lower) and not self.lexicon.is_census_name(tok.lower):
                break  # a service signs as a team: "Cardiology, MD aware"
            if tok.text.isupper() and tok.case is Case.MIXED and self.lexicon.is_clinical_term(tok.lower):
                break  # a unit before its nurse: "Report called to ED RN Tom"
            if (
                (first and self.words.after_weak_cue(tok, lenient=False))
                or (not first and (self.words.continues(tok) or self._given_name_before(tok)))
                or self._signs_with_credential(tok)
                or (len(tok.text) == 1 and tok.text.isalpha())
                or (first and _is_initials(tok) and not self.words.excluded(tok))
            ):
                run.insert(0, j)
                j -= 1
            else:
                break
        return run

    def _signs_with_credential(self, tok: Token) -> bool:
        """A word of a name that signs with a credential, in any case: "ELSPETH MORROW, M.D.",
        "Hamish Okafor, M.D.", "Lionel T. Church, M.D.": a census name that is not a frequent
        word, or a word rare in English and not clinical ("Cardiology, MD" is a service)."""
        if self.words.excluded(tok, surname_ok=True) or (
            tok.case is Case.MIXED and not tok.text[0].isupper()
        ):
            return False
        low = tok.bare.lower()
        zipf = self.lexicon.zipf(low)
        if self.lexicon.is_census_name(low):
            return zipf < 5.5
        # in ALL-CAPS lines, capitals are no evidence: only words rarer than "NOTIFY" or "RECORDER"
        limit = 4.0 if tok.case is Case.MIXED else 3.2
        return zipf < limit and not self.lexicon.is_clinical(low)

    def _given_name_before(self, tok: Token) -> bool:
        """A capitalised word before a surname that signs with a credential: "Jun Tanaka, LICSW"."""
        low = tok.bare.lower()
        if capitalised_given_name(tok, self.lexicon):
            return True  # "Will Hartigan, MD"
        return (
            tok.case is Case.MIXED
            and tok.text[0].isupper()
            and not tok.text.isupper()
            and self.lexicon.zipf(low) < 4.5
            and not self.lexicon.is_clinical(low)
            and not self.words.excluded(tok)
        )


def _result(text: str, tokens: Sequence[Token], run: list[int], score: float) -> RecognizerResult:
    first, last = tokens[run[0]], tokens[run[-1]]
    end = last.start + len(last.bare)
    if len(last.text) == 1 and text[end : end + 1] == ".":
        end += 1  # an initial keeps its full stop: "J.M."
    if suffix := GENERATION.match(text, end):
        end = suffix.end()  # "Wendell Price Jr.", "John Smith III"
    return RecognizerResult(NAME, first.start, end, score)


def adjacent(text: str, a: Token, b: Token) -> bool:
    """Whether two words are written as parts of one name: one space apart, or an initial's full
    stop, or a wrapped line between them ("Dr. Xavier\nRush"), unless a heading begins there."""
    gap = text[a.end : b.start]
    if gap in (" ", ". ", ".", "  ") or re.fullmatch(r"\.? ?", gap) is not None:
        return True
    return is_wrap(text, a.end, b.start) and not text.startswith(":", b.end)


def _is_initial(text: str, tok: Token) -> bool:
    return len(tok.text) == 1 and tok.text.isalpha() and text[tok.end : tok.end + 1] == "."


def _bare_initial(text: str, tokens: Sequence[Token], j: int) -> bool:
    """A capital letter without a full stop, then a capitalised word: the "R" of "Dr R Chaudhry"."""
    tok = tokens[j]
    if len(tok.text) != 1 or not tok.text.isupper() or j + 1 >= len(tokens):
        return False
    nxt = tokens[j + 1]
    return text[tok.end : nxt.start] == " " and nxt.text[0].isupper() and len(nxt.text) > 1


def _is_initials(tok: Token) -> bool:
    """Two or three letters written as initials: "KL", "jm" (in a lower-case line)."""
    return 2 <= len(tok.text) <= 3 and tok.text.isalpha() and (tok.text.isupper() or tok.case is Case.LOWER)


def _is_credential_token(tok: Token) -> bool:
    return CREDENTIALS.fullmatch(tok.text) is not None or LOWER_CREDENTIALS.fullmatch(tok.text) is not None
