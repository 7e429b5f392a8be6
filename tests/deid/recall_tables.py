"""What the recall test modules (tests/deid/test_recall_*.py) share: their tables of (text, phi)
examples made into test cases, and the two assertions every one of them makes."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from deid import Deidentifier
from tests.deid.test_safe_harbor import redacted

Table = Sequence[tuple[str, str]]


def cases(*tables: tuple[str, Table]) -> list[pytest.ParameterSet]:
    """One case a row of each (kind, table), with the id "<kind>-<row index>"."""
    return [
        pytest.param(text, phi, id=f"{kind}-{i}")
        for kind, table in tables
        for i, (text, phi) in enumerate(table)
    ]


def assert_redacted(deid: Deidentifier, text: str, phi: str) -> None:
    assert redacted(deid, text, phi), deid.deidentify(text).text


def assert_kept(deid: Deidentifier, text: str, term: str) -> None:
    out = deid.deidentify(text).text
    assert term in out, out
