"""Field encryption at rest: one data key per episode, wrapped by the master key (envelope).

Each sensitive field is AES-256-GCM encrypted under the episode's data key with the episode id
and field name as associated data, so a ciphertext copied to another row or field fails to decrypt.
The data key itself is wrapped (AES-GCM) by the current master key, bound to the episode id.
Rotating the master key re-wraps data keys and never touches field ciphertexts; deleting the data
key makes every copy of the episode's ciphertexts unreadable (crypto-shredding).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from jarvis.errors import DataIntegrityError
from jarvis.security.keys import KeyRing

NONCE_BYTES = 12
_FORMAT = b"\x01"  # leading version byte of every blob, so the format can change later


class DecryptionError(DataIntegrityError):
    """A ciphertext does not match its key, episode or field: tampering or a missing key version."""


@dataclass(frozen=True, slots=True)
class WrappedKey:
    master_version: int
    blob: bytes


def _seal(key: bytes, plaintext: bytes, aad: bytes) -> bytes:
    nonce = os.urandom(NONCE_BYTES)
    return _FORMAT + nonce + AESGCM(key).encrypt(nonce, plaintext, aad)


def _open(key: bytes, blob: bytes, aad: bytes) -> bytes:
    if len(blob) < 1 + NONCE_BYTES + 16 or blob[:1] != _FORMAT:
        raise DecryptionError("ciphertext is malformed")
    nonce, body = blob[1 : 1 + NONCE_BYTES], blob[1 + NONCE_BYTES :]
    try:
        return AESGCM(key).decrypt(nonce, body, aad)
    except InvalidTag:
        raise DecryptionError("ciphertext does not authenticate") from None


class FieldCipher:
    def __init__(self, master: KeyRing) -> None:
        self._master = master

    @property
    def current_master_version(self) -> int:
        return self._master.current_version

    @staticmethod
    def _wrap_aad(episode_id: str) -> bytes:
        return f"dek:v1:{episode_id}".encode()

    @staticmethod
    def _field_aad(episode_id: str, field: str) -> bytes:
        return f"field:v1:{episode_id}:{field}".encode()

    def new_data_key(self, episode_id: str) -> tuple[bytes, WrappedKey]:
        data_key = AESGCM.generate_key(bit_length=256)
        version = self._master.current_version
        return data_key, WrappedKey(
            version, _seal(self._master.current, data_key, self._wrap_aad(episode_id))
        )

    def unwrap(self, episode_id: str, wrapped: WrappedKey) -> bytes:
        return _open(self._master.get(wrapped.master_version), wrapped.blob, self._wrap_aad(episode_id))

    def rewrap(self, episode_id: str, wrapped: WrappedKey) -> WrappedKey:
        """The same data key under the current master key."""
        if wrapped.master_version == self._master.current_version:
            return wrapped
        data_key = self.unwrap(episode_id, wrapped)
        aad = self._wrap_aad(episode_id)
        return WrappedKey(self._master.current_version, _seal(self._master.current, data_key, aad))

    def encrypt(self, data_key: bytes, episode_id: str, field: str, plaintext: str) -> bytes:
        return _seal(data_key, plaintext.encode("utf-8"), self._field_aad(episode_id, field))

    def decrypt(self, data_key: bytes, episode_id: str, field: str, blob: bytes) -> str:
        return _open(data_key, blob, self._field_aad(episode_id, field)).decode("utf-8")
