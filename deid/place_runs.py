"""Place names completed to the whole proper name they are part of.

A recognizer often finds only one word of a longer name: the town of "Kaiser Permanente
Roseville", the acronym of "UCI Health", the rare word of "Riverside Methodist". The rest of the
name is left in the text, and what is left can identify the place ("Kaiser Permanente ..." and a
town). So a LOCATION found by a rule spreads over the capitalised words written beside it on the
same line, as long as each of them could be part of a name: a word of a place's name (a facility
head, a direction, a town), a word rare in English, or an acronym that is not clinical. Titles,
roles, months, clinical words and departments end the name ("Riverside Methodist ED" keeps "ED";
"at Mercy Dr Shah" keeps "Dr"), so a name made of clinical words ("Atrium", "Sharp") is not
completed across them.

Lines in lower case give no capitals to follow, and are left as the recognizers found them.

Two more kinds of words complete a place: a store's number after it ("Walmart Pharmacy #0417"), and
a name that only the dictionary guessed, right after a facility's head word, which is the facility's
("Memorial Hermann Southeast", a hospital named for someone).

A place found once is found again: where the text names it again ("Red Rocks Care Center ... agreeable
to Red Rocks Care Center"), and by the short name it is given in brackets after it ("Community Regional
(CRMC)", "Regional One ("the Med")"), wherever that short name is written.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from presidio_analyzer import RecognizerResult

from deid.lexicon import Lexicon
from deid.recognizers.care_places import SPECIALTY, UNITS, WHEN, generic_word
from deid.recognizers.facilities import GENERIC, STOPPERS, FacilityRecognizer
from deid.recognizers.name_words import NOT_NAMES, ROLES, TITLES
from deid.text import Case, Token, token_starts, tokenize
from deid.types import LOCATION, NAME

# Between two words of one name: a space, "&", "/" or a dash between spaces ("Baylor Scott & White",
# "Presbyterian/St. Luke's", "Te Whatu Ora – Waikato").
GAP = re.compile(r"[ ](?:[&/–-][ ])?|/")
# Small words inside a name, taken only with a name word after them: "Campus for Ageing and Vitality".
INNER = frozenset({"of", "for", "and", "at", "on", "upon", "de", "la", "du", "der"})
DIRECTIONS = frozenset(
    "north south east west northeast northwest southeast southwest central upper lower".split()
)
RARE_ZIPF = 3.5
# Words that end an organisation's name after a found place, common as they are: "Fresenius Kidney
# Care", "Oglala Sioux Transit", "Blacksburg Volunteer Rescue Squad", "Tufts Health Plan".
ORG_TAIL = frozenset(
    """care services service transit rescue squad program programs plan homes resources living healing
    alliance coalition partnership outreach staffing authority""".split()
)
HEADED_RARE_ZIPF = 5.5  # before a facility's head, common words are its name's too
MAX_WORDS = 4  # spread at most this many words each way
STORE_NUMBER = re.compile(r"[ ]?#[ ]?\d{2,6}\b")
CUED_NAME_SCORE = 0.8  # names found after a title, role or label are people (deid.spread)


def complete_places(
    text: str, results: Sequence[RecognizerResult], lexicon: Lexicon
) -> list[RecognizerResult]:
    """LOCATION results covering each rule-found place with the rest of its proper name."""
    places = [r for r in results if r.entity_type == LOCATION]
    tokens = tokenize(text)
    starts = token_starts(text)
    places += _headed_names(text, tokens, starts, results)
    if not places:
        return []
    out: list[RecognizerResult] = []
    for r in places:
        first = bisect.bisect_left(starts, r.start)
        last = bisect.bisect_left(starts, r.end) - 1
        if first > last or tokens[first].case is Case.LOWER:
            continue
        upper = tokens[first].case is Case.UPPER
        # before a facility's head the words are its name even when common ones: "Red Rocks Care Center"
        headed = not upper and FacilityRecognizer.HEAD.search(text, r.start, r.end) is not None
        end = _walk(text, tokens, last, 1, upper, lexicon, RARE_ZIPF)
        if end + 1 < len(tokens) and tokens[end + 1].text == ("HOME" if upper else "Home"):
            if _joined(text, tokens, end, end + 1):
                end += 1  # a home named for a place or a saint: "Poydras Home", "Immaculate Mary Home"
        start = _walk(text, tokens, first, -1, upper, lexicon, HEADED_RARE_ZIPF if headed else RARE_ZIPF)
        new_start = min(r.start, tokens[start].start)
        if text.startswith("THE " if upper else "The ", new_start - 4) and (
            new_start == 4 or not text[new_start - 5].isalnum()
        ):
            new_start -= 4  # the article is the name's: "The Queen's Medical Center", "at The Ivy Inn"
        new_end = max(r.end, tokens[end].end)
        if store := STORE_NUMBER.match(text, new_end):
            new_end = store.end()  # the store's number is part of its name: "Walmart Pharmacy #0417"
        if (new_start, new_end) != (r.start, r.end):
            out.append(RecognizerResult(LOCATION, new_start, new_end, r.score))
    return out


def _headed_names(
    text: str, tokens: Sequence[Token], starts: Sequence[int], results: Sequence[RecognizerResult]
) -> list[RecognizerResult]:
    """Places made of a facility's head word and the dictionary-guessed name right after it."""
    out: list[RecognizerResult] = []
    for r in results:
        if r.entity_type != NAME or r.score >= CUED_NAME_SCORE:
            continue
        i = bisect.bisect_left(starts, r.start)
        if 0 < i < len(tokens) and tokens[i].start == r.start and tokens[i].case is Case.MIXED:
            head = tokens[i - 1]
            if (
                head.text[0].isupper()
                and FacilityRecognizer.HEAD.fullmatch(head.text)
                and _joined(text, tokens, i - 1, i)
            ):
                out.append(RecognizerResult(LOCATION, head.start, r.end, r.score))
    return out


# The short name of a place, in brackets right after it: "(CRMC)", "("CMC")", "("the Med")".
SHORT_NAME = re.compile(r"[ ]?\([ ]?[\"“']?(?:(?P<the>the)[ ])?(?P<short>[A-Z][A-Za-z&]{1,9})[\"”']?[ ]?\)")
MIN_ECHO = 3  # letters: "UH" or "VA" again is no evidence of the same place


def echo_places(text: str, places: Sequence[RecognizerResult], lexicon: Lexicon) -> list[RecognizerResult]:
    """LOCATION results for the short names given to the found places and for every uncovered
    repeat of a found place name or short name, written as it was found. A nickname ("the Med")
    is repeated only with its "the": "Med" alone is also a medication."""
    out: list[RecognizerResult] = []
    names: set[str] = set()
    nicknames: set[str] = set()
    for r in places:
        if r.entity_type != LOCATION:
            continue
        name = text[r.start : r.end]
        if sum(c.isalpha() for c in name) >= MIN_ECHO and any(c.isupper() for c in name):
            names.add(name)
        short = SHORT_NAME.match(text, r.end)
        if short and _short_name(short["short"], bool(short["the"]), lexicon):
            out.append(RecognizerResult(LOCATION, short.start("short"), short.end("short"), r.score))
            (nicknames if short["the"] else names).add(short["short"])
    for name in names:
        if not _common(name, lexicon):
            out += [RecognizerResult(LOCATION, at, at + len(name), 0.6) for at in _occurrences(text, name)]
    for name in nicknames:  # "the Med": only after "the"
        out += [
            RecognizerResult(LOCATION, at, at + len(name), 0.6)
            for at in _occurrences(text, name)
            if text[max(0, at - 4) : at].lower() == "the "
        ]
    return out


def _occurrences(text: str, name: str) -> list[int]:
    """Where `name` is written as a whole word or words (found with str.find: a regex per name
    would be compiled for every text)."""
    found = []
    at = text.find(name)
    while at >= 0:
        end = at + len(name)
        if (at == 0 or not _word_char(text[at - 1])) and (end == len(text) or not _word_char(text[end])):
            found.append(at)
        at = text.find(name, end)
    return found


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_'’-"


def _short_name(word: str, nickname: bool, lexicon: Lexicon) -> bool:
    """An acronym that is not a clinical one ("CRMC", not "(ICU)" or "(NEPHROLOGY)"), or a nickname
    with "the" ("the Med")."""
    low = word.lower()
    if low in UNITS or low in GENERIC or SPECIALTY.search(low) or lexicon.is_place_word(low):
        return False
    if nickname:
        return True  # what staff call the place, clinical-sounding or not: ("the Med")
    return (
        not generic_word(word, lexicon)
        and word.isupper()
        and 3 <= len(word) <= 6
        and lexicon.zipf(word) < 3.0
    )


def _common(name: str, lexicon: Lexicon) -> bool:
    """A one-word name whose repeats may be the ordinary or clinical word it also is ("Mercy",
    "Bay"): it is not looked for again. Names of several words always are."""
    words = name.split()
    if len(words) > 1:
        return False
    low = words[0].lower()
    if name.isupper():
        return lexicon.is_clinical_term(low) or low in UNITS
    return lexicon.is_clinical(low) or lexicon.zipf(low) >= 4.5 or low in NOT_NAMES


def _walk(
    text: str, tokens: Sequence[Token], at: int, step: int, upper: bool, lexicon: Lexicon, rare_zipf: float
) -> int:
    """The index of the farthest token from `at`, in direction `step`, that continues the name."""
    reach = at
    j = at
    taken = 0
    while taken < MAX_WORDS:
        k = j + step
        if not 0 <= k < len(tokens) or not _joined(text, tokens, j, k):
            break
        if tokens[k].lower in INNER:
            after = k + step
            if not 0 <= after < len(tokens) or not _joined(text, tokens, k, after):
                break
            if not _name_word(tokens[after], upper, lexicon, rare_zipf):
                break
            j = reach = after
            taken += 2
            continue
        if not _name_word(tokens[k], upper, lexicon, rare_zipf):
            break
        j = reach = k
        taken += 1
    return reach


def _joined(text: str, tokens: Sequence[Token], a: int, b: int) -> bool:
    left, right = (tokens[a], tokens[b]) if a < b else (tokens[b], tokens[a])
    return GAP.fullmatch(text, left.end, right.start) is not None


def _name_word(tok: Token, upper: bool, lexicon: Lexicon, rare_zipf: float) -> bool:
    """Whether a word, written as it is, can be part of a place's proper name: one rarer than
    `rare_zipf` if it is nothing more."""
    word, low = tok.text, tok.lower
    if upper:
        if not word.isupper():
            return False
    elif not word[0].isupper():
        return False
    bare = tok.bare.lower()
    if bare in TITLES or bare in ROLES or bare in NOT_NAMES or bare in UNITS or WHEN.fullmatch(bare):
        return False
    if lexicon.is_place_word(bare):
        return False  # a state or a country: Safe Harbor keeps it
    if bare in ORG_TAIL:
        return True
    # (a head as written too: some heads are capitalised words only, "Medical", "Transport", "Park")
    head = FacilityRecognizer.HEAD.fullmatch(low) or FacilityRecognizer.HEAD.fullmatch(tok.bare)
    if head or bare in DIRECTIONS or lexicon.is_town(bare):
        return True
    if bare in GENERIC or bare in STOPPERS:
        return False  # "outside Mercy Hospital", "the local Riverside clinic"
    if lexicon.is_clinical(bare) or lexicon.is_clinical_term(bare) or bare in lexicon.eponyms:
        return False
    if word.isupper() and not upper:
        return len(word) >= 2  # an acronym in mixed-case text, not a clinical one: "UH", "SSM"
    return lexicon.zipf(bare) < rare_zipf
