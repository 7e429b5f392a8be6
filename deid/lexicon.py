"""Word lists that deid consults, loaded once per Deidentifier (see data/SOURCES.md).

Kept as data from maintained packages or public-domain sources, never typed into code.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import wordfreq

# At or above this Zipf frequency (once per 100,000 words of English) a word is common English:
# "will", "may", "hope", "long". Census names below it are probably meant as names.
COMMON_ZIPF = 5.0
# Census surnames past this rank are mostly rare words ("stent", "bolus", "cough" are all census
# surnames); they count as names only when they are not medical words and not familiar English.
FREQUENT_SURNAME_RANK = 10_000
RARE_ZIPF = 3.0
RAREST_BUCKET = 800  # frequency 1e-8: once per 100 million words
# Greek and Latin endings of medical terms; no personal or place name in the census lists ends so.
MEDICAL_SUFFIX = re.compile(
    r"(?:ectomy|otomy|ostomy|plasty|scopy|scopic|graphy|itis|osis|oses|emia|uria|algia|pathy|penia|"
    r"megaly|plegia|paresis|synthesis|lysis|ectasis|phoretic|trophic|genic|cytic|lytic|oma|omas)$"
)


def _data_lines(name: str) -> list[str]:
    text = resources.files("deid").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def _census(name: str) -> list[str]:
    """A census name file, most frequent first."""
    text = resources.files("names").joinpath(name).read_text(encoding="ascii")
    return [line.split()[0].lower() for line in text.splitlines() if line.strip()]


def _countries() -> frozenset[str]:
    text = resources.files("tzdata").joinpath("zoneinfo").joinpath("iso3166.tab").read_text(encoding="utf-8")
    names = {line.split("\t", 1)[1].strip().lower() for line in text.splitlines() if line[:1].isalpha()}
    return frozenset(names | {"usa", "america", "united states", "england", "scotland", "wales"})


def _zipf_table() -> dict[str, float]:
    # Zipf = log10(frequency per billion words); words rarer than 1 per 100M are left out (0).
    # wordfreq's list holds its words in buckets of one centibel (bucket i: frequency 10^(-i/100)),
    # so Zipf is 9 - i/100; reading the buckets is twice as fast as its frequency dictionary.
    table: dict[str, float] = {}
    for i, bucket in enumerate(wordfreq.get_frequency_list("en")[: RAREST_BUCKET + 1]):
        table.update(dict.fromkeys(bucket, 9 - i / 100))
    return table


# eq=False: hashed by identity, so that the word tests below can be memoised per lexicon.
@dataclass(frozen=True, eq=False)
class Lexicon:
    first_names: frozenset[str]
    surname_rank: dict[str, int]
    medical_words: frozenset[str]  # ICD-10-CM vocabulary, drug names and clinical_terms.txt
    clinical_terms: frozenset[str]  # drug names and clinical_terms.txt (no ICD: it names places too)
    eponyms: frozenset[str]
    countries: frozenset[str]
    state_abbrevs: frozenset[str]
    state_names: frozenset[str]
    places: frozenset[str]  # towns, cities and counties (places.txt), lower case
    place_starts: frozenset[str]  # the first words of `places`: a quick test before a phrase lookup
    foreign_months: frozenset[str]  # month names of other languages (month_names.txt), lower case
    # companies and chains (organisations.txt, chains.txt): the name as written -> whether it needs a place cue
    organisations: dict[str, bool]
    organisation_starts: frozenset[str]  # their first words, lower case
    zipf_table: dict[str, float]

    @classmethod
    def load(cls) -> Lexicon:
        states = [line.split("\t") for line in _data_lines("us_states.tsv")]
        surnames = _census("dist.all.last")
        terms = _data_lines("drug_words.txt") + _data_lines("clinical_terms.txt")
        places = _data_lines("places.txt")
        organisations = {
            line.split("\t")[0]: line.endswith("\tcue")
            for line in _data_lines("organisations.txt") + _data_lines("chains.txt")
        }
        return cls(
            first_names=frozenset(_census("dist.male.first") + _census("dist.female.first")),
            surname_rank={name: rank for rank, name in enumerate(surnames, start=1)},
            medical_words=frozenset(_data_lines("icd10cm_words.txt") + terms),
            clinical_terms=frozenset(terms),
            eponyms=frozenset(_data_lines("eponyms.txt")),
            countries=_countries(),
            state_abbrevs=frozenset(abbr for abbr, _ in states),
            state_names=frozenset(name.lower() for _, name in states),
            places=frozenset(places),
            place_starts=frozenset(p.split(" ", 1)[0] for p in places),
            foreign_months=frozenset(_data_lines("month_names.txt")),
            organisations=organisations,
            organisation_starts=frozenset(name.split(" ", 1)[0].lower() for name in organisations),
            zipf_table=_zipf_table(),
        )

    def zipf(self, word: str) -> float:
        return self.zipf_table.get(word.lower(), 0.0)

    def is_census_name(self, word: str) -> bool:
        low = _census_form(word)
        return low in self.first_names or low in self.surname_rank

    def is_first_name(self, word: str) -> bool:
        return _census_form(word) in self.first_names

    def surname_rank_of(self, word: str) -> int | None:
        """The census rank of a surname (1 = most frequent), or None."""
        return self.surname_rank.get(_census_form(word))

    # Every recognizer asks about the same words of a text: memoised (one lexicon lives as long as
    # its process, so the cache never outlives it; its size bounds the memory).
    @lru_cache(maxsize=65_536)  # noqa: B019
    def is_clinical(self, word: str) -> bool:
        """A medical word (or its plural), drug or clinical abbreviation, an eponym (or its plural:
        "Apgars"), or a word built
        like a medical term ("endarterectomy", "tomosynthesis", "diaphoretic")."""
        low = word.lower().strip(".,;:'’\"")
        bare = _bare(low)
        # ICD-10-CM keeps eponyms possessive ("parkinson's"), so "Smith's" is clinical but "Smith" is not.
        return (
            low in self.medical_words
            or bare in self.medical_words
            or bare in self.eponyms
            or (bare.endswith("s") and (bare[:-1] in self.medical_words or bare[:-1] in self.eponyms))
            or (len(bare) >= 7 and MEDICAL_SUFFIX.search(bare) is not None)
        )

    def is_clinical_term(self, word: str) -> bool:
        """A drug or clinical abbreviation: never part of a place name ("NS", "ICU")."""
        return _bare(word) in self.clinical_terms

    @lru_cache(maxsize=65_536)  # noqa: B019 - see is_clinical
    def name_likelihood(self, word: str) -> float:
        """How likely a word is a person's name on dictionary evidence alone (0 = not at all).

        1.0: a census first name or frequent surname that is not common English or clinical;
        0.7: a rare census surname that is neither a medical word nor familiar English.
        """
        low = _bare(word)
        census = _census_form(low)
        # an accented word is as common as its plain spelling: "Diné" is as frequent as "dine"
        zipf = max(self.zipf(low), self.zipf(census))
        if len(low) < 2 or self.is_clinical(low) or zipf >= COMMON_ZIPF:
            return 0.0
        rank = self.surname_rank.get(census)
        if census in self.first_names or (rank is not None and rank <= FREQUENT_SURNAME_RANK):
            return 1.0
        if rank is not None and zipf < RARE_ZIPF:
            return 0.7
        return 0.0

    def is_place_word(self, word: str) -> bool:
        """A state or a country: geography that Safe Harbor lets a note keep."""
        low = word.lower()
        return low in self.countries or low in self.state_names

    def is_town(self, phrase: str) -> bool:
        """A town, city or county in the gazetteer (places.txt): geography smaller than a state."""
        return place_key(phrase) in self.places

    def starts_place(self, word: str) -> bool:
        """The word begins some place name: the quick test before a phrase lookup."""
        return place_key(word) in self.place_starts


def place_key(phrase: str) -> str:
    """A place name as places.txt spells it: lower case, a plain apostrophe and (since the list has
    them both ways) accents dropped: "Goiânia" -> "goiania"."""
    low = phrase.lower().replace("’", "'")
    if low.isascii():
        return low
    return unicodedata.normalize("NFKD", low).encode("ascii", "ignore").decode()


def _census_form(word: str) -> str:
    """The census spelling: lower case without apostrophes ("O'Connor" -> "oconnor") or accents,
    which the census lists do not write ("Wiśniewski" -> "wisniewski", "Núñez" -> "nunez")."""
    low = _bare(word).replace("'", "").replace("’", "")
    if low.isascii():
        return low
    plain = "".join(c for c in unicodedata.normalize("NFKD", low) if not unicodedata.combining(c))
    return plain if plain.isascii() else low  # "ß", "ł" are letters of their own, not accented ones


def _bare(word: str) -> str:
    """Lower case without a possessive or surrounding punctuation: "Crohn's" -> "crohn"."""
    low = word.lower().strip(".,;:'’\"")
    for suffix in ("'s", "’s"):
        if low.endswith(suffix):
            return low[: -len(suffix)]
    return low
