"""Names spread from where a cue found them to where the text writes them again without one.

- Repeats: "dr angela brown ... prefers to keep seeing brown", "Mr Okafor ... Okafor agrees".
- Lists: "Drs Patel and Moreau", "founders: Eklund, Michael and Hodge".

Only names the rule recognizers found after a cue are spread (not the NER model's guesses, nor
dictionary guesses). A word that is also an English or clinical word is repeated only where it is
written as it was in the name ("Brown" for "Will Brown", not "brown urine" for "Dr Brown"), and only
when it was part of a longer name, whose other words vouched for it; a listed word must look like
a name itself.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from presidio_analyzer import RecognizerResult

from deid.lexicon import Lexicon
from deid.recognizers.name_words import NOT_NAMES, ROLES, TITLES, NameWords
from deid.recognizers.ner import EPONYM_HEAD
from deid.text import Case, Token, is_sentence_start, token_starts, tokenize
from deid.types import NAME

MIN_SCORE = 0.8  # names found after a cue; dictionary guesses are not spread
SCORE = 0.6
# Between two names of a list: "Patel and Moreau", "Eklund, Michael", "Ng / Osei".
# A medical specialty, which follows a doctor's name as a comma-listed word would.
SPECIALTY = re.compile(r"(?:ology|iatry|iatrics|ics|surgery|medicine)$")
LIST_GAP = re.compile(r",\s?|\s(?:and|or|&)\s|,\s(?:and|or)\s|\s?/\s?")


def spread_names(text: str, results: Sequence[RecognizerResult], lexicon: Lexicon) -> list[RecognizerResult]:
    """NAME results for the uncovered repeats of the names in `results` and their list partners."""
    names = [r for r in results if r.entity_type == NAME and r.score >= MIN_SCORE]
    if not names:
        return []
    tokens = tokenize(text)
    starts = token_starts(text)
    spans = _union([(r.start, r.end) for r in results])
    listed = _listed(text, tokens, starts, names, NameWords(lexicon))
    repeated = _repeated(text, tokens, starts, names + listed, spans, lexicon)
    return listed + repeated


def _listed(
    text: str, tokens: Sequence[Token], starts: Sequence[int], names: list[RecognizerResult], words: NameWords
) -> list[RecognizerResult]:
    out: list[RecognizerResult] = []
    for r in names:
        first = bisect.bisect_left(starts, r.start)
        last = bisect.bisect_left(starts, r.end) - 1
        if first > last:
            continue
        for step, j in ((1, last), (-1, first)):
            while (k := _partner(text, tokens, j, step)) is not None and _listed_name(text, tokens[k], words):
                out.append(
                    RecognizerResult(NAME, tokens[k].start, tokens[k].start + len(tokens[k].bare), SCORE)
                )
                j = k
    return out


def _partner(text: str, tokens: Sequence[Token], j: int, step: int) -> int | None:
    """The token listed next to token j in the direction `step`, over a comma, "and" or "or"."""
    for k in (j + step, j + 2 * step):  # the list word "and" is a token of its own
        if not 0 <= k < len(tokens):
            return None
        left, right = (tokens[j], tokens[k]) if step == 1 else (tokens[k], tokens[j])
        if LIST_GAP.fullmatch(text[left.end : right.start]):
            return k
    return None


def _listed_name(text: str, tok: Token, words: NameWords) -> bool:
    """A capitalised word that is a name on its own evidence ("Moreau", "Michael"), not "Cardiology"."""
    if tok.case is not Case.MIXED or not tok.text[0].isupper() or tok.text.isupper():
        return False
    if "-" in tok.bare and any(words.lexicon.zipf(p) >= 3.0 for p in tok.bare.lower().split("-")):
        return False  # "Spanish-speaking", "Non-English"
    if SPECIALTY.search(tok.lower):
        return False  # "Dr Okonjo, Cardiology"
    return words.after_weak_cue(tok, lenient=False) and not is_sentence_start(text, tok.start)


def _repeated(
    text: str,
    tokens: Sequence[Token],
    starts: Sequence[int],
    names: list[RecognizerResult],
    spans: list[tuple[int, int]],
    lexicon: Lexicon,
) -> list[RecognizerResult]:
    seen: dict[str, set[str]] = {}  # lower-case word -> the ways it was written
    plain: set[str] = set()  # words that are names and nothing else
    for r in names:
        inside = tokens[bisect.bisect_left(starts, r.start) : bisect.bisect_left(starts, r.end)]
        for tok in inside:
            low = tok.bare.lower()
            if len(low) < 3 or low in NOT_NAMES or low in ROLES or low in TITLES or _acronym(tok):
                continue
            if len(inside) == 1 and not lexicon.is_census_name(low):
                continue  # a word alone after a cue is vouched for by that cue only: "per outpt"
            if lexicon.name_likelihood(low) > 0 or (lexicon.zipf(low) < 3.0 and not lexicon.is_clinical(low)):
                plain.add(low)
            elif len(inside) == 1 or lexicon.is_clinical_term(low):
                continue
            seen.setdefault(low, set()).add(_shape(tok))
    if not seen:
        return []
    out: list[RecognizerResult] = []
    for tok in tokens:
        low = tok.lower if tok.lower[-1] not in "s'’" else tok.bare.lower()  # "Okafor's" -> "okafor"
        if low not in seen or _acronym(tok) or _covered(spans, tok.start):
            continue
        if not _repeat_ok(text, tok, low in plain, seen[low]) or EPONYM_HEAD.match(
            text, tok.start + len(tok.bare)
        ):
            continue  # "Dr Bell" and "Bell's palsy"
        out.append(RecognizerResult(NAME, tok.start, tok.start + len(tok.bare), SCORE))
    return out


def _union(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def _covered(union: list[tuple[int, int]], pos: int) -> bool:
    i = bisect.bisect_right(union, (pos, float("inf"))) - 1
    return i >= 0 and union[i][0] <= pos < union[i][1]


def _repeat_ok(text: str, tok: Token, plain: bool, shapes: set[str]) -> bool:
    if plain:  # in mixed-case text a capital is still needed: "Grant" the name, "grant" the verb
        return tok.case is not Case.MIXED or tok.text[0].isupper() or _shape(tok) in shapes
    # In ALL-CAPS or lower-case notes the shape says nothing: "WHITE COUNT", "NO BROWN URINE".
    return tok.case is Case.MIXED and _shape(tok) in shapes and not is_sentence_start(text, tok.start)


def _shape(tok: Token) -> str:
    t = tok.bare
    return "upper" if t.isupper() else "lower" if t.islower() else "title"


def _acronym(tok: Token) -> bool:
    """ "DCF", "OPAT" in mixed-case text: an abbreviation, whatever it was taken for once."""
    return tok.case is Case.MIXED and tok.text.isupper() and len(tok.text) <= 5
