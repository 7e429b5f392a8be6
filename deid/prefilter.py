"""Literal prefilters: run a regular expression only where a match can be.

Python's re engine tries a pattern at each position of a text, and a case-insensitive pattern gets
no literal-prefix search, so a pattern costs ~20 ns a character even where its trigger words ("@",
a month name, "county") are absent. A Scanner reads off the parsed pattern the literals its matches
begin with (then it tries the pattern only where one of them is), or else literals one of which
every match holds (then it skips a text without any). It looks for them with str.find on the folded
text, a search in C that costs a fraction of the pattern's, or, for a literal behind a word boundary
(most patterns begin r"\b(?:..."), among the text's word starts, indexed once per text; and it finds
exactly the matches of regex.finditer(). The derivation is conservative: a pattern without such
literals (numbers, character classes, optional parts) runs as before.
"""

from __future__ import annotations

import functools
import importlib
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

# re's own parser, the one re.compile uses (private, but the same tree since Python 3.11).
_parser: Any = importlib.import_module("re._parser")
_constants: Any = importlib.import_module("re._constants")

T = TypeVar("T")
_REPEATS = (_constants.MAX_REPEAT, _constants.MIN_REPEAT, _constants.POSSESSIVE_REPEAT)
_ZERO_WIDTH = (_constants.AT, _constants.ASSERT, _constants.ASSERT_NOT)
# The only non-ASCII characters that a case-insensitive pattern matches to an ASCII letter. Three of
# them str.lower() does not turn into that letter ("İ" even becomes two characters), so fold() maps
# them first; the fourth, the Kelvin sign, lower() maps to "k" itself.
_ASCII_LOOKALIKES = str.maketrans({"İ": "i", "ı": "i", "ſ": "s"})


class Scanner:
    """A compiled pattern whose finditer() skips the text where no match can be."""

    def __init__(self, regex: re.Pattern[str]) -> None:
        self.regex = regex
        tree = None if regex.flags & re.LOCALE else _parser.parse(regex.pattern, regex.flags)
        leading = None if tree is None or regex.flags & re.ASCII else _leading(tree)
        self._leading = None if leading is None else Leads(leading)
        self._required = None if tree is None else _required(tree)

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """The matches of self.regex.finditer(text), found faster."""
        if self._leading is not None:
            return self._anchored(text, self._leading)
        if self._required is not None and not any(lit in fold(text) for lit in self._required):
            return iter(())
        return self.regex.finditer(text)

    def _anchored(self, text: str, leading: Leads) -> Iterator[re.Match[str]]:
        # finditer() takes the first position from which the pattern matches and goes on from the
        # match's end. Trying the candidate starts in order does the same: no match starts
        # elsewhere, and none is empty (each begins with a literal).
        end = 0
        for start in leading.starts(text):
            if start >= end and (match := self.regex.match(text, start)):
                yield match
                end = match.end()


@functools.lru_cache(maxsize=32)
def fold(text: str) -> str:
    """The text as the literals are written: lower case, character for character (so its offsets
    are the text's). Cached: every recognizer of a request folds the same text."""
    if not text.isascii():
        text = text.translate(_ASCII_LOOKALIKES)
    return text.lower()


class Leads:
    """The literals a pattern's matches begin with, each with whether the pattern puts a word
    boundary right before it (r"\b(?:apt|unit)"). Those that begin with a letter or digit behind a
    boundary can only be where a word starts: they are looked up among the text's word starts, not
    searched for (a one-letter literal such as "o" is in every other word, but begins few)."""

    def __init__(self, leads: frozenset[tuple[str, bool]]) -> None:
        self._at_words: dict[str, list[str]] = {}
        self._anywhere: list[str] = []
        for literal, after_boundary in leads:
            if after_boundary and WORD_CHAR.match(literal):
                self._at_words.setdefault(literal[:KEY_LENGTH], []).append(literal)
            else:
                self._anywhere.append(literal)
        self._keys = frozenset(self._at_words)

    def starts(self, text: str) -> list[int]:
        """Every position of the text where one of the literals starts (the ones behind a word
        boundary only at a word's start), in order, overlapping ones too."""
        folded = fold(text)
        found: set[int] = set()
        index = word_starts(text)
        for key in self._keys & index.keys():
            for literal in self._at_words[key]:
                if len(literal) <= KEY_LENGTH:
                    found.update(index[key])
                else:
                    found.update(at for at in index[key] if folded.startswith(literal, at))
        for literal in self._anywhere:
            at = folded.find(literal)
            while at >= 0:
                found.add(at)
                at = folded.find(literal, at + 1)
        return sorted(found)


WORD_CHAR = re.compile(r"\w")
# Word starts are indexed by their first one, two and three characters.
KEY_LENGTH = 3
WORD_START = re.compile(r"\b\w")


@functools.lru_cache(maxsize=32)
def word_starts(text: str) -> dict[str, list[int]]:
    """Where the text's words start, by their first one, two and three characters folded (a
    literal is looked up by as many of its first characters as it has, up to three). Cached alike."""
    folded = fold(text)
    index: dict[str, list[int]] = {}
    for match in WORD_START.finditer(text):
        at = match.start()
        for length in range(1, KEY_LENGTH + 1):
            index.setdefault(folded[at : at + length], []).append(at)
    return index


def _leading(items: Any, after_boundary: bool = False) -> frozenset[tuple[str, bool]] | None:
    """The folded literals one of which every match of a parsed sequence begins with, each with
    whether a word boundary (\\b) comes right before it; None if some match may begin otherwise."""
    run = ""
    for op, av in items:
        if op is _constants.LITERAL and _foldable(chr(av)):
            run += chr(av).lower()
        elif run:
            break
        elif op not in _ZERO_WIDTH:  # anchors and lookarounds take no characters: look past them
            return _element(op, av, functools.partial(_leading, after_boundary=after_boundary))
        elif op is _constants.AT and av is _constants.AT_BOUNDARY:
            after_boundary = True
    return frozenset({(run, after_boundary)}) if run else None


def _required(items: Any) -> frozenset[str] | None:
    """Of the literal sets a parsed sequence needs (each run of literal characters, each required
    group), the one cheapest to rule out: whose shortest literal is longest. None if it needs none."""
    needed: list[frozenset[str]] = []
    run = ""
    for op, av in items:
        if op is _constants.LITERAL and _foldable(chr(av)):
            run += chr(av).lower()
            continue
        if run:
            needed.append(frozenset({run}))
            run = ""
        literals = _element(op, av, _required)
        if literals is not None:
            needed.append(literals)
    if run:
        needed.append(frozenset({run}))
    return max(needed, key=lambda s: (min(map(len, s)), -len(s)), default=None)


def _element(op: Any, av: Any, of_sequence: Callable[[Any], frozenset[T] | None]) -> frozenset[T] | None:
    """The literals of a group, repeat or alternation, by `of_sequence` (_leading or _required)."""
    if op is _constants.SUBPATTERN:
        return of_sequence(av[-1])
    if op is _constants.ATOMIC_GROUP:
        return of_sequence(av)
    if op in _REPEATS:
        low, _, body = av
        return of_sequence(body) if low >= 1 else None
    if op is _constants.BRANCH:
        return _union(of_sequence(branch) for branch in av[1])
    return None  # character classes, back-references, conditionals: no literal known


def _union(alternatives: Iterable[frozenset[T] | None]) -> frozenset[T] | None:
    """The literals of a set of alternatives; None if one alternative has none."""
    union: set[T] = set()
    for literals in alternatives:
        if literals is None:
            return None
        union |= literals
    return frozenset(union)


def _foldable(char: str) -> bool:
    """Whether fold() turns every character the pattern may match here into `char.lower()`: true
    of ASCII characters (see _ASCII_LOOKALIKES) and of characters without case ("’", "—", "°")."""
    return char.isascii() or char.lower() == char == char.upper()
