"""Which sentences the NER model is woken for (deid.segments): a word that could be an undetected
name or place opens one; clinical shorthand, eponyms, a record's frame words and common words that
only name small towns do not (a waking costs about 4 ms, more than the rest of a question)."""

from __future__ import annotations

import pytest

from deid.lexicon import Lexicon
from deid.segments import ner_segments
from deid.text import tokenize


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load()


def _opened(text: str, lexicon: Lexicon) -> bool:
    return bool(ner_segments(text, tokenize(text), [], lexicon))


@pytest.mark.parametrize(
    "text",
    [
        "Fascia closed with 0 Vicryl, skin 4-0 Monocryl. Fluoro time 11.2 min.",
        "Insulin aspart via Omnipod; on Trelegy. Seen by Nephrology and Geriatrics.",
        "Apgars 8/9, wt 3620 g. Gleason 3+4 on biopsy.",
        "Dear Colleague, thank you. Progress note follows.",
        "PT WITH HAND SPLINT, POST VOID RESIDUAL 80, READING GLASSES ON",
        "Admit to Gen Med (Ward 32). Blake drain to bulb suction. Oral intake fair.",
        "Pt speaks Vietnamese and English; Medicare primary.",
    ],
)
def test_clinical_and_frame_words_do_not_wake_the_model(lexicon: Lexicon, text: str) -> None:
    assert not _opened(text, lexicon)


@pytest.mark.parametrize(
    "text",
    [
        "Seen today with her neighbour Oksana Hrytsenko.",  # rare capitalised words: maybe a name
        "pt arjun venkataraman to follow up",  # lower case: a long word no dictionary knows
        "LIVES IN MARSHALLTOWN WITH DAUGHTER",  # a town of a rare word in capitals
        "Transferred from Chest Disease Center yesterday.",  # a facility no rule names
    ],
)
def test_possible_names_and_places_wake_the_model(lexicon: Lexicon, text: str) -> None:
    assert _opened(text, lexicon)
