"""The word lists behave as documented, and the derived ones match their source packages."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from deid.lexicon import Lexicon

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


# simple-icd-10-cm reads its data with the deprecated importlib.resources.read_text.
@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_derived_lists_are_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("build_lexicons", ROOT / "scripts" / "build_lexicons.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.build().items():
        committed = (ROOT / "deid" / "data" / name).read_text(encoding="utf-8")
        assert committed == text, f"deid/data/{name} is stale: run python scripts/build_lexicons.py"
