"""Text helpers for episodes: clinical tags from the vocabulary, extractive summaries, search terms.

All of them work on de-identified text only.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

VOCABULARY_PATH = Path(__file__).parent / "data" / "tag_vocabulary.tsv"
SUMMARY_MAX_CHARS = 280
MAX_TAGS = 12

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")
_WORD = re.compile(r"[a-z0-9][a-z0-9\-]*")
# Words that carry no retrieval signal in a clinician's question.
_STOPWORDS = frozenset(
    """a an and are as at be been but by can could did do does for from had has have he her him his how i if
    in into is it its last me my no not of on or our she should so than that the their them then there
    these they this to was we were what when where which who why will with would you your pt patient
    give given any about after before now what's whats ok please thanks also""".split()
)


# Words (letters, digits, inner hyphens) and single punctuation marks: the units that vocabulary
# surface forms ("septic shock", "beta-blocker", "c. diff") and texts are both cut into.
_TAG_TOKEN = re.compile(r"[\w-]+|[^\w\s-]")


@lru_cache(maxsize=1)
def _vocabulary() -> tuple[dict[tuple[str, ...], str], int]:
    """Surface forms as token tuples -> tag, and the longest form's length in tokens."""
    mapping: dict[tuple[str, ...], str] = {}
    for line in VOCABULARY_PATH.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            surface, _, tag = line.partition("\t")
            mapping[tuple(_TAG_TOKEN.findall(surface.strip().lower()))] = tag.strip()
    return mapping, max(map(len, mapping))


def clinical_tags(text: str) -> list[str]:
    """Tags for the clinical terms of the vocabulary found in the text, in order of appearance.

    A dictionary look-up of token n-grams, longest first (so "septic shock" wins over "shock"):
    linear in the text (one regular expression of all 250 surface forms was 5x slower)."""
    mapping, longest = _vocabulary()
    tokens = _TAG_TOKEN.findall(text.lower())
    tags: list[str] = []
    i = 0
    while i < len(tokens) and len(tags) < MAX_TAGS:
        for n in range(min(longest, len(tokens) - i), 0, -1):
            tag = mapping.get(tuple(tokens[i : i + n]))
            if tag is not None:
                if tag not in tags:
                    tags.append(tag)
                i += n
                break
        else:
            i += 1
    return tags


def _first_sentence(text: str) -> str:
    stripped = " ".join(text.split())
    return _SENTENCE_END.split(stripped, maxsplit=1)[0] if stripped else ""


def extractive_summary(query: str, response: str) -> str:
    """The question and the answer's first sentence, cut at a word boundary to ~280 characters."""
    question, answer = _first_sentence(query), _first_sentence(response)
    summary = f"Q: {question} A: {answer}" if answer else f"Q: {question}"
    if len(summary) <= SUMMARY_MAX_CHARS:
        return summary
    return summary[: SUMMARY_MAX_CHARS - 1].rsplit(" ", 1)[0] + "…"


def embedding_text(query: str, summary: str) -> str:
    """What is embedded: the summary and the query, without embedding the same words twice.

    The extractive summary already holds a one-sentence question; the model's cost grows with
    every token, so the query is added only when the summary does not contain all of it.
    """
    flat_query, flat_summary = " ".join(query.split()), " ".join(summary.split())
    return flat_summary if flat_query in flat_summary else f"{flat_summary}\n{flat_query}"


def search_terms(text: str) -> list[str]:
    """Content words of a de-identified query, placeholders and stop words removed."""
    words = _WORD.findall(_PLACEHOLDER.sub(" ", text).lower())
    return [w for w in words if w not in _STOPWORDS and (len(w) > 1 or w.isdigit())]
