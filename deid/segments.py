"""Which parts of a text the NER model needs to read.

The model is the slowest step (~8 ms per 50 words on a small CPU) and in clinical text it adds
little where the rule recognizers have already decided. It runs only on the sentences that hold a
word that could still be an undetected name or place: capitalised (or, in ALL-CAPS and lower-case
notes, dictionary-name-like), not a clinical or common word, and not inside a span already found.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from deid.lexicon import Lexicon
from deid.recognizers.name_words import ENGLISH_ENDINGS, NOT_NAMES, ROLES, TITLES
from deid.text import Case, Token, is_sentence_start

FACILITY_HEAD = re.compile(
    r"hospital|clinic|center|centre|school|university|college|institute|infirmary|pharmacy|hospice|"
    r"manor|laboratories|associates|academy|church|company|corporation"
)
# Names with a capital inside: McNally, MacArthur, DeShawn, LaToya, O'Brien, VanDyke.
INNER_CAPITAL_NAME = re.compile(
    r"(?:Mc|Mac|De|Di|Da|La|Le|Van|Von|O'|O’|D'|D’)[A-Z][a-z]+$|[A-Z][a-z]+-[A-Z][a-z]+$"
)
# Words of a record's frame (a salutation, a heading, a field) that the rules read around and the
# model never needed to: the name after "Dear" is the rules' to find. And words of care, languages
# and programmes that are also census names or towns ("Ward", "Drain", "Oral", "Blake" of a Blake
# drain, "English", "Medicare"), each of which woke the model for 8 to 79 sentences of the tuning
# notes where it found nothing, or one span at most.
RECORD_WORDS = frozenset(
    """dear progress section session acct caller prescriber start normal recheck ward drain post
    pre-op on-call hosp oral colon comfort peak hand bay blake english vietnamese medicare reading
    sunday male newborn portal ma""".split()
)
# A town named by a word this common is that word in a note written in one case.
COMMON_TOWN_ZIPF = 5.0
# Sentence ends: the model reads whole sentences, at most MAX_SIDE characters either side of a word.
BOUNDARY = re.compile(r"[.!?;|]\s|\n|\s—\s|\s{3,}")
MAX_SIDE = 120


def is_candidate(tok: Token, text: str, lexicon: Lexicon) -> bool:
    """Could this word be part of a name or place that only the model would find?"""
    low = tok.bare.lower()
    if len(low) < 2 or low in NOT_NAMES or low in ROLES or low in TITLES or lexicon.is_clinical_term(low):
        return False
    parts = low.split("-")
    if len(parts) > 1 and any(lexicon.is_clinical(p) or ENGLISH_ENDINGS.search(p) for p in parts):
        return False  # "C-spine", "Post-op", "Jackson-Pratt", "Spanish-speaking"
    if low in RECORD_WORDS:
        return False
    likely = lexicon.name_likelihood(low)
    # an eponym that is also a town's name ("Gleason", "Murphy's", "Morse") is the eponym here
    town = lexicon.is_town(low) and low not in lexicon.eponyms
    if likely == 0 and not town and (lexicon.is_clinical(low) or ENGLISH_ENDINGS.search(low)):
        return False
    zipf = lexicon.zipf(low)
    if tok.case is not Case.MIXED:
        # a town named by a common word ("HAND", "POST", "COMFORT", "READING") is that word in a note
        # of one case; the town rules find it where a place is meant
        if likely > 0 or (town and zipf < COMMON_TOWN_ZIPF):
            return True
        return len(low) >= 5 and zipf < 2.0  # short rare words in such notes are shorthand: "PIV", "mrn"
    word = tok.bare
    if not word[0].isupper() or (word.isupper() and len(word) <= 5) or (len(word) <= 3 and likely == 0):
        return False  # lower-case words, acronyms and short abbreviations ("Na", "Dx")
    if any(c.isupper() for c in word[1:]) and not INNER_CAPITAL_NAME.match(word):
        return False  # "SpO", "KCl", "QTc", "ResMed": units, chemistry, brands
    if likely > 0 or town:
        return True
    if is_sentence_start(text, tok.start):
        return zipf < 2.5  # "Summary", "Denies", "Recs" start sentences; a rare word may be a name
    return zipf < 4.0


def _facility_head(tok: Token, prev: Token | None, found: list[tuple[int, int]]) -> bool:
    """A capitalised facility word after a capitalised word no rule has explained: the model reads
    the sentence ("Chest Disease Center", "Mission Hill K-8 School")."""
    if tok.case is not Case.MIXED or not tok.text[0].isupper() or not FACILITY_HEAD.fullmatch(tok.lower):
        return False
    if prev is None or not prev.text[0].isupper():
        return False
    return not any(a <= prev.start < b for a, b in found)


def ner_segments(
    text: str, tokens: Iterable[Token], found: Iterable[tuple[int, int]], lexicon: Lexicon
) -> list[tuple[int, int]]:
    """Sorted, non-overlapping (start, end) spans of `text` for the model to read."""
    spans = sorted(found)
    segments: list[tuple[int, int]] = []
    k = 0
    prev: Token | None = None
    for tok in tokens:
        prev, before = tok, prev
        while k < len(spans) and spans[k][1] <= tok.start:
            k += 1
        if k < len(spans) and spans[k][0] <= tok.start and tok.end <= spans[k][1]:
            continue  # already found by a rule
        if segments and tok.start < segments[-1][1]:
            continue  # its sentence is already selected
        if is_candidate(tok, text, lexicon) or _facility_head(tok, before, spans):
            segments.append(_sentence(text, tok.start, tok.end))
    merged: list[tuple[int, int]] = []
    for start, end in segments:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max(0, start - MAX_SIDE)
    before = [m.end() for m in BOUNDARY.finditer(text, lo, start)]
    seg_start = before[-1] if before else lo
    after = BOUNDARY.search(text, end, min(len(text), end + MAX_SIDE))
    seg_end = after.start() + 1 if after else min(len(text), end + MAX_SIDE)
    return seg_start, seg_end
