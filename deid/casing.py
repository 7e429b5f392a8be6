"""Case normalisation for the NER model, which learnt from newspaper text: in an ALL-CAPS or
all-lower-case line it cannot see names. Such lines are rewritten — name-like words capitalised,
other words lower-cased — keeping every character offset, so its entities map back to the original.
"""

from __future__ import annotations

from deid.lexicon import Lexicon
from deid.text import Case, tokenize


def normalise_case(text: str, lexicon: Lexicon) -> str:
    tokens = tokenize(text)
    if all(tok.case is Case.MIXED for tok in tokens):
        return text
    chars = list(text)
    for tok in tokens:
        if tok.case is Case.MIXED:
            continue
        word = tok.text
        if lexicon.name_likelihood(tok.bare) > 0 or (
            lexicon.zipf(tok.bare) < 2.0 and not lexicon.is_clinical(tok.bare)
        ):
            new = word[0].upper() + word[1:].lower()
        elif tok.case is Case.UPPER and len(word) <= 3 and lexicon.zipf(word) < 4.0:
            new = word  # an acronym: CHF, SOB
        else:
            new = word.lower()
        if len(new) == len(word):  # some letters change length when their case changes
            chars[tok.start : tok.end] = new
    return "".join(chars)
