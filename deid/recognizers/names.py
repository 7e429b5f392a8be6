"""Names of patients, relatives and staff (Safe Harbor A), found from the context clinicians write
them in — titles, roles, verbs, credentials, labels — and from census name lists, in any letter case.
"""

from __future__ import annotations

import re
from typing import ClassVar

from presidio_analyzer import EntityRecognizer, RecognizerResult
from presidio_analyzer.nlp_engine import NlpArtifacts
from spacy.lang.en.stop_words import STOP_WORDS

from deid.lexicon import Lexicon
from deid.text import Case, Token, is_sentence_start, tokenize
from deid.types import NAME

TITLES = frozenset("dr dr. doctor mr mr. mrs mrs. ms ms. miss mx prof professor sr sra srta".split())
# Mr/Ms double as clinical abbreviations (mitral regurgitation, multiple sclerosis, mental status).
AMBIGUOUS_TITLES = frozenset({"mr", "ms"})
ROLES = frozenset(
    """husband wife son daughter mother father mom mum dad brother sister sibling grandson granddaughter
    grandmother grandfather grandma grandpa aunt uncle niece nephew cousin partner spouse fiance fiancee
    boyfriend girlfriend friend neighbor neighbour roommate caregiver guardian proxy hcp poa nok sponsor
    interpreter pastor chaplain rn lpn cna np md nurse attending resident intern fellow pcp surgeon
    cardiologist oncologist neurologist hospitalist intensivist radiologist pathologist anesthesiologist
    pharmacist therapist dietitian nutritionist midwife doula provider physician colleague coworker
    patient pt child stepdaughter stepson stepmother stepfather granddad grandmom sw""".split()
)
VERB_CUE = re.compile(
    r"(?:seen|evaluated|examined|signed|dictated|transcribed|reviewed|discussed|called|paged|page|spoke|"
    r"spoken|talked|consulted|consult|d/w|dw|per|cc|attn|attention|c/w|contacted|notified|informed|"
    r"messaged|texted|emailed|visited|accompanied|covered|covering|supervised|cosigned|relieved)"
    r"(?:\s+(?:by|with|to|w/|from))?\s*:?\s*$",
    re.IGNORECASE,
)
LABEL_CUE = re.compile(
    r"(?:attending|pcp|resident|fellow|intern|surgeon|provider|physician|author|signed|"
    r"electronically\s+signed(?:\s+by)?|dictated\s+by|referring(?:\s+(?:md|physician|provider))?|"
    r"contact|emergency\s+contact|nok|next\s+of\s+kin|patient(?:\s+name)?|pt\s+name|name|"
    r"rn|nurse|np|pa|cc|from|to|hcp|proxy|guardian|poa|caregiver)\s*:\s*$",
    re.IGNORECASE,
)
CREDENTIALS = re.compile(
    r"\s*,?\s*(?:MD|M\.D\.|DO|D\.O\.|RN|NP|PA-C|PA|LPN|CNA|PhD|PharmD|APRN|FNP|FNP-C|CRNA|LCSW|MSW|DDS|"
    r"MBBS|FACP|FACC|FACS|RD|OTR|DPT|CNM|NNP|ANP|BSN|MSN|DNP|RRT)\b"
)
# After these a capitalised word is a noun phrase, not a name: "Dr. on call", "husband at bedside".
NOT_NAMES = frozenset(STOP_WORDS) | {"pt", "pts", "patient", "family", "team", "bedside", "home", "today"}


class ContextNameRecognizer(EntityRecognizer):
    """Names after a title, role, verb or label, or before a credential."""

    SCORES: ClassVar[dict[str, float]] = {
        "title": 0.95,
        "label": 0.9,
        "credential": 0.9,
        "role": 0.85,
        "verb": 0.8,
    }

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        super().__init__(supported_entities=[NAME], supported_language="en")

    def load(self) -> None:
        """Nothing to load: the lexicon is built by the Deidentifier."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        tokens = tokenize(text)
        results: list[RecognizerResult] = []
        for i, tok in enumerate(tokens):
            cue = self._cue_before(text, tokens, i)
            if cue:
                run = self._name_run(text, tokens, i, strong=cue in ("title", "label"))
                if run:
                    results.append(self._result(tokens, run, self.SCORES[cue]))
            if CREDENTIALS.match(text, tok.end) and not _is_credential_token(tok):
                run = self._run_backwards(tokens, i)
                if run:
                    results.append(self._result(tokens, run, self.SCORES["credential"]))
        return results

    def _cue_before(self, text: str, tokens: list[Token], i: int) -> str | None:
        if i == 0:
            prefix = text[: tokens[0].start]
            return "label" if LABEL_CUE.search(prefix) else None
        prev = tokens[i - 1]
        gap = text[prev.end : tokens[i].start]
        if prev.lower in TITLES or (prev.lower + ".") in TITLES:
            if gap.strip(" .") == "" and "\n" not in gap:
                if prev.lower in AMBIGUOUS_TITLES and not self._plausible_after_mr(prev, tokens[i]):
                    return None
                return "title"
        if prev.lower in ROLES and re.fullmatch(r"\s*[,:(]?\s*", gap) and "\n" not in gap:
            return "role"
        window = text[max(0, tokens[i].start - 40) : tokens[i].start]
        if LABEL_CUE.search(window):
            return "label"
        if VERB_CUE.search(window):
            return "verb"
        return None

    def _plausible_after_mr(self, title: Token, tok: Token) -> bool:
        if title.case is Case.MIXED and title.text[0].isupper() and title.text[1:].islower():
            return tok.text[0].isupper()
        return self.lexicon.name_likelihood(tok.bare) > 0

    def _name_run(self, text: str, tokens: list[Token], i: int, strong: bool) -> list[int]:
        run: list[int] = []
        for j in range(i, min(i + 4, len(tokens))):
            tok = tokens[j]
            if run and not _adjacent(text, tokens[j - 1], tok):
                break
            first = not run
            if self._is_name_token(tok, strong=strong and first):
                run.append(j)
            elif _is_initial(text, tok):
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
        return run

    def _run_backwards(self, tokens: list[Token], i: int) -> list[int]:
        run: list[int] = []
        j = i
        while j >= 0 and len(run) < 4:
            tok = tokens[j]
            if self._is_name_token(tok, strong=False) or (len(tok.text) == 1 and tok.text.isupper()):
                run.insert(0, j)
                j -= 1
            else:
                break
        return run

    def _is_name_token(self, tok: Token, strong: bool) -> bool:
        bare = tok.bare
        low = bare.lower()
        if len(bare) < 2 or low in NOT_NAMES or low in ROLES or low in TITLES:
            return False
        likely = self.lexicon.name_likelihood(bare)
        if tok.case is Case.MIXED and bare[0].isupper():
            # A capitalised word after a title or label is a name unless it is plainly clinical.
            return (
                strong or likely > 0 or (self.lexicon.zipf(low) < 3.5 and not self.lexicon.is_clinical(low))
            )
        # Lower case in mixed text ("dr healey") is judged as in a lower-case note.
        if strong:
            return not self.lexicon.is_clinical(low) or likely > 0
        return likely > 0 or (self.lexicon.zipf(low) < 2.5 and not self.lexicon.is_clinical(low))

    @staticmethod
    def _result(tokens: list[Token], run: list[int], score: float) -> RecognizerResult:
        first, last = tokens[run[0]], tokens[run[-1]]
        end = last.start + len(last.bare)
        return RecognizerResult(NAME, first.start, end, score)


class DictionaryNameRecognizer(EntityRecognizer):
    """Census names without context: a first name followed by a surname, or a rare surname alone."""

    def __init__(self, lexicon: Lexicon) -> None:
        self.lexicon = lexicon
        super().__init__(supported_entities=[NAME], supported_language="en")

    def load(self) -> None:
        """Nothing to load."""

    def analyze(
        self, text: str, entities: list[str], nlp_artifacts: NlpArtifacts | None = None
    ) -> list[RecognizerResult]:
        tokens = tokenize(text)
        results: list[RecognizerResult] = []
        lex = self.lexicon
        for i, tok in enumerate(tokens):
            if tok.case is Case.MIXED and not tok.text[0].isupper():
                continue
            bare = tok.bare
            likely = lex.name_likelihood(bare)
            if likely == 0 or bare.lower() in NOT_NAMES:
                continue
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            if (
                nxt is not None
                and bare.lower() in lex.first_names
                and _adjacent(text, tok, nxt)
                and (nxt.case is not Case.MIXED or nxt.text[0].isupper())
                and lex.name_likelihood(nxt.bare) > 0
            ):
                results.append(RecognizerResult(NAME, tok.start, nxt.start + len(nxt.bare), 0.7))
                continue
            rare = lex.zipf(bare) < (4.0 if tok.case is Case.MIXED else 3.3)
            if rare and not (tok.case is Case.MIXED and is_sentence_start(text, tok.start)):
                results.append(RecognizerResult(NAME, tok.start, tok.start + len(bare), 0.45 * likely))
        return results


def _adjacent(text: str, a: Token, b: Token) -> bool:
    gap = text[a.end : b.start]
    return gap in (" ", ". ", ".", "  ") or re.fullmatch(r"\.? ?", gap) is not None


def _is_initial(text: str, tok: Token) -> bool:
    return len(tok.text) == 1 and tok.text.isalpha() and text[tok.end : tok.end + 1] == "."


def _is_credential_token(tok: Token) -> bool:
    return CREDENTIALS.fullmatch(tok.text) is not None
