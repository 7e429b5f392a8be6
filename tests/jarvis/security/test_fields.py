"""Envelope encryption: per-episode data keys bound to episode and field; master-key rotation."""

from __future__ import annotations

import secrets

import pytest

from jarvis.security.fields import DecryptionError, FieldCipher
from jarvis.security.keys import KeyRing

V1 = KeyRing({1: secrets.token_bytes(32)})


def test_round_trip_and_ciphertext_hides_the_text() -> None:
    cipher = FieldCipher(V1)
    key, _ = cipher.new_data_key("ep_1")
    blob = cipher.encrypt(key, "ep_1", "query", "Gita Bhat, MRN 00482913")
    assert b"Gita" not in blob and b"00482913" not in blob
    assert cipher.decrypt(key, "ep_1", "query", blob) == "Gita Bhat, MRN 00482913"


@pytest.mark.parametrize(("episode", "field"), [("ep_2", "query"), ("ep_1", "response")])
def test_ciphertext_is_bound_to_its_episode_and_field(episode: str, field: str) -> None:
    cipher = FieldCipher(V1)
    key, _ = cipher.new_data_key("ep_1")
    blob = cipher.encrypt(key, "ep_1", "query", "text")
    with pytest.raises(DecryptionError):
        cipher.decrypt(key, episode, field, blob)


def test_tampered_ciphertext_and_wrong_key_fail() -> None:
    cipher = FieldCipher(V1)
    key, _ = cipher.new_data_key("ep_1")
    blob = bytearray(cipher.encrypt(key, "ep_1", "query", "text"))
    blob[-1] ^= 1
    with pytest.raises(DecryptionError):
        cipher.decrypt(key, "ep_1", "query", bytes(blob))
    other, _ = cipher.new_data_key("ep_1")
    with pytest.raises(DecryptionError):
        cipher.decrypt(other, "ep_1", "query", cipher.encrypt(key, "ep_1", "query", "text"))


def test_wrapped_data_key_is_bound_to_its_episode() -> None:
    cipher = FieldCipher(V1)
    key, wrapped = cipher.new_data_key("ep_1")
    assert cipher.unwrap("ep_1", wrapped) == key
    with pytest.raises(DecryptionError):
        cipher.unwrap("ep_2", wrapped)


def test_master_rotation_rewraps_the_data_key_and_leaves_ciphertexts_alone() -> None:
    old = FieldCipher(V1)
    key, wrapped = old.new_data_key("ep_1")
    blob = old.encrypt(key, "ep_1", "query", "text")
    ring = V1.with_new_version()
    new = FieldCipher(ring)
    rewrapped = new.rewrap("ep_1", wrapped)
    assert rewrapped.master_version == 2 and rewrapped.blob != wrapped.blob
    # Only version 2 configured: the old wrapping is unreadable, the rewrapped one opens the same blob.
    only_new = FieldCipher(KeyRing({2: ring.keys[2]}))
    assert only_new.decrypt(only_new.unwrap("ep_1", rewrapped), "ep_1", "query", blob) == "text"
    with pytest.raises(Exception, match="key version 1 is not configured"):
        only_new.unwrap("ep_1", wrapped)
