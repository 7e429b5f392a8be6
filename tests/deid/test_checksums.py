"""Check digits of national and health identifiers: the published examples pass, one changed digit fails."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deid import checksums

CASES = [
    (checksums.nhs_number, "9434765919", True),  # NHS Digital's example
    (checksums.nhs_number, "9434765918", False),
    (checksums.nhs_number, "123456789", False),  # nine digits
    (checksums.verhoeff, "234123412346", True),  # Aadhaar
    (checksums.verhoeff, "499118665246", True),
    (checksums.verhoeff, "499118665247", False),
    (checksums.luhn, "046454286", True),  # Canadian SIN example
    (checksums.luhn, "1234567897", True),  # Ontario health number shape
    (checksums.luhn, "1234567890", False),
    (checksums.ppsn, "1234567T", True),  # Irish PPSN, old format
    (checksums.ppsn, "1234567FA", True),  # new format, second letter
    (checksums.ppsn, "1234567TW", True),  # W as the second letter counts as zero
    (checksums.ppsn, "1234567A", False),
    (checksums.au_medicare, "2123456701", True),  # Services Australia's example
    (checksums.au_medicare, "2123456711", False),
    (checksums.au_medicare, "1123456701", False),  # a Medicare number starts with 2-6
    (checksums.bc_phn, "9698658215", True),  # British Columbia PHN
    (checksums.bc_phn, "9698658216", False),
]


@pytest.mark.parametrize(("check", "code", "valid"), CASES)
def test_check_digit(check: Callable[[str], bool], code: str, valid: bool) -> None:
    assert check(code) is valid
