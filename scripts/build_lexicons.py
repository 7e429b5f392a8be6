"""Derive deid's word lists from the packages they come from (see deid/data/SOURCES.md).

The derived lists are committed so that the de-identifier starts fast: unpickling the drug
dictionary takes ~3 s and parsing the ICD-10-CM XML ~0.3 s, against a 2 s cold-start budget.
tests/deid/test_lexicon.py rebuilds them and fails if the committed files are stale.

    python scripts/build_lexicons.py          # rewrite deid/data/{drug_words,icd10cm_words}.txt
"""

from __future__ import annotations

import bz2
import pickle
import re
from importlib import resources
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "deid" / "data"
WORD = re.compile(r"[a-z][a-z'-]*[a-z]")

HEADERS = {
    "drug_words.txt": "# Single-word drug names (generic, brand, variants), lower case, derived by\n"
    "# scripts/build_lexicons.py from drug-named-entity-recognition's drug_ner_dictionary (MIT).\n",
    "icd10cm_words.txt": "# Words of the ICD-10-CM tabular list (descriptions and notes), lower case, derived by\n"
    "# scripts/build_lexicons.py from simple-icd-10-cm's copy of the CMS/NCHS file (public domain).\n",
}


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


def render(name: str, words: list[str]) -> str:
    return HEADERS[name] + "".join(f"{w}\n" for w in words)


def build() -> dict[str, str]:
    return {
        "drug_words.txt": render("drug_words.txt", drug_words()),
        "icd10cm_words.txt": render("icd10cm_words.txt", icd10cm_words()),
    }


def main() -> None:
    for name, text in build().items():
        (DATA / name).write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
