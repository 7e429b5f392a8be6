"""patient_ref = HMAC-SHA256(key, "mrn:v1:" + normalised MRN), versioned; the MRN itself never appears."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

import pytest

from jarvis.errors import InputError
from jarvis.security.keys import KeyRing
from jarvis.security.pseudonyms import Pseudonymizer, normalise_mrn

KEY_1, KEY_2 = secrets.token_bytes(32), secrets.token_bytes(32)


@pytest.mark.parametrize(
    ("raw", "normalised"), [("00482913", "00482913"), (" 00-482 913 ", "00482913"), ("ab.12/3", "AB123")]
)
def test_mrns_are_normalised_keeping_leading_zeros(raw: str, normalised: str) -> None:
    assert normalise_mrn(raw) == normalised


@pytest.mark.parametrize("raw", ["", "  - ", "12;DROP", "x" * 65])
def test_unusable_mrns_are_refused_without_echoing_them(raw: str) -> None:
    with pytest.raises(InputError) as raised:
        normalise_mrn(raw)
    assert raw.strip() == "" or raw not in str(raised.value)


def test_ref_is_the_keyed_hmac_of_the_normalised_mrn() -> None:
    ref = Pseudonymizer(KeyRing({1: KEY_1})).ref("00-482913")
    digest = hmac.new(KEY_1, b"mrn:v1:00482913", hashlib.sha256).digest()
    assert ref.ref == "p1_" + base64.urlsafe_b64encode(digest).decode().rstrip("=")
    assert ref.key_version == 1 and "482913" not in ref.ref


def test_same_mrn_same_ref_and_other_key_other_ref() -> None:
    one, two = Pseudonymizer(KeyRing({1: KEY_1})), Pseudonymizer(KeyRing({1: KEY_2}))
    assert one.ref("00482913") == one.ref("00 482 913")
    assert one.ref("00482913").ref != two.ref("00482913").ref
    assert one.ref("00482913").ref != one.ref("00482914").ref


def test_rotation_makes_new_refs_and_lookups_cover_every_version() -> None:
    rotated = Pseudonymizer(KeyRing({1: KEY_1, 2: KEY_2}))
    assert rotated.ref("A1").key_version == 2
    refs = rotated.refs_for("A1")
    assert [r.key_version for r in refs] == [2, 1]
    assert refs[1] == Pseudonymizer(KeyRing({1: KEY_1})).ref("A1")
