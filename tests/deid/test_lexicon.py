"""The word lists behave as documented, and the derived ones match their source packages."""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest

from deid.lexicon import Lexicon
from tests.deid.script_loader import load_script

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.load()


@pytest.mark.parametrize(
    ("word", "is_name"),
    [("healey", True), ("Okafor", True), ("JIM", True), ("will", False), ("hope", False), ("stent", False),
     ("metformin", False), ("Crohn's", False), ("Parkinson", False), ("sepsis", False)],
)  # fmt: skip
def test_name_likelihood(lexicon: Lexicon, word: str, is_name: bool) -> None:
    assert (lexicon.name_likelihood(word) > 0) is is_name


def test_places(lexicon: Lexicon) -> None:
    assert lexicon.is_place_word("Ohio") and lexicon.is_place_word("france")
    assert "MA" in lexicon.state_abbrevs
    assert not lexicon.is_place_word("Dorchester")


def _build_script() -> ModuleType:
    return load_script("build_lexicons")


# simple-icd-10-cm reads its data with the deprecated importlib.resources.read_text.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("name", ["drug_words.txt", "icd10cm_words.txt", "places.txt", "organisations.txt"])
def test_derived_lists_are_up_to_date(name: str) -> None:
    module = _build_script()
    pytest.importorskip(module.PACKAGES[name], reason=f"the source of deid/data/{name} is not installed")
    committed = (ROOT / "deid" / "data" / name).read_text(encoding="utf-8")
    assert committed == module.build([name])[name], (
        f"deid/data/{name} is stale: run python scripts/build_lexicons.py"
    )


def test_chains_are_filtered_and_marked_by_the_script() -> None:
    """chains.txt's source is an npm tarball that CI does not fetch: its names are checked here
    against the script's rules (no clinical word, eponym, town or state; cue marks), the list
    itself against the tarball below when NSI_TARBALL names it."""
    module = _build_script()
    committed = (ROOT / "deid" / "data" / "chains.txt").read_text(encoding="utf-8")
    lines = [line for line in committed.splitlines() if line and not line.startswith("#")]
    assert len(lines) > 3000
    assert lines == module.chain_lines(line.split("\t")[0] for line in lines)
    assert committed == module.render("chains.txt", lines)


def test_chains_match_name_suggestion_index() -> None:
    tarball = os.environ.get("NSI_TARBALL")
    if not tarball:
        pytest.skip(
            "NSI_TARBALL (name-suggestion-index's npm tarball, see scripts/build_lexicons.py) is not set"
        )
    committed = (ROOT / "deid" / "data" / "chains.txt").read_text(encoding="utf-8")
    assert committed == _build_script().build_chains(Path(tarball)), "deid/data/chains.txt is stale"


def test_chains_in_the_lexicon(lexicon: Lexicon) -> None:
    assert lexicon.organisations["MinuteClinic"] is False  # taken wherever written
    assert lexicon.organisations["Walgreens"] is True  # a word of 3.1 Zipf: after a cue
    assert "Buckle" not in lexicon.organisations and "Columbia" not in lexicon.organisations


def test_towns(lexicon: Lexicon) -> None:
    assert lexicon.is_town("Framingham") and lexicon.is_town("fall river") and lexicon.is_town("Lagos")
    assert not lexicon.is_town("Massachusetts") and not lexicon.is_town("Canada")


@pytest.mark.parametrize(
    ("word", "clinical"),
    [
        ("endarterectomy", True),
        ("tomosynthesis", True),
        ("pulses", True),
        ("Okafor", False),
        ("Thomas", False),
    ],
)
def test_clinical_words_by_shape(lexicon: Lexicon, word: str, clinical: bool) -> None:
    assert lexicon.is_clinical(word) is clinical


def test_census_names_match_without_apostrophes(lexicon: Lexicon) -> None:
    assert lexicon.name_likelihood("O'Connor") > 0 and lexicon.is_census_name("o'brien")


@pytest.mark.parametrize(
    ("phrase", "is_town"),
    [
        ("Didsbury", True),  # a suburb of Manchester (GB, 500+ people)
        ("Enugu", True),
        ("Bangalore", True),  # the English name of Bengaluru
        ("Goiania", True),  # accents dropped as well as kept
        ("Goiânia", True),
        ("Battle", False),  # a small town named like an English word
        ("bile", False),  # a small town named like a medical word
        ("doula", False),
    ],
)
def test_world_towns(lexicon: Lexicon, phrase: str, is_town: bool) -> None:
    assert lexicon.is_town(phrase) is is_town
