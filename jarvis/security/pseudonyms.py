"""Patient pseudonyms: patient_ref = HMAC-SHA256(pseudonym key, "mrn:v1:" + normalised MRN).

The raw MRN is never stored; a ref names the key version that made it. After the pseudonym key is
rotated, old episodes keep their old refs, so look-ups use `refs_for` (one ref per key version).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass

from jarvis.errors import InputError
from jarvis.security.keys import KeyRing

MAX_MRN_CHARS = 64
# Separators that people type inside MRNs ("00-123 456") but that never distinguish two patients.
_SEPARATORS = re.compile(r"[\s\-./]+")
_MRN = re.compile(rf"[A-Z0-9]{{1,{MAX_MRN_CHARS}}}")  # ASCII only: "٣" is a digit to isalnum()


def normalise_mrn(mrn: str) -> str:
    """Upper-case, separators removed; leading zeros kept (an MRN is a string, not a number)."""
    if not isinstance(mrn, str):
        raise InputError("patient id must be a string")
    normalised = _SEPARATORS.sub("", mrn).upper()
    if not normalised:
        raise InputError("patient id is empty")
    if not _MRN.fullmatch(normalised):
        raise InputError(f"patient id must be 1-{MAX_MRN_CHARS} letters or digits")
    return normalised


@dataclass(frozen=True, slots=True)
class PatientRef:
    ref: str
    key_version: int


class Pseudonymizer:
    def __init__(self, keys: KeyRing) -> None:
        self._keys = keys

    def _ref(self, normalised: str, version: int) -> PatientRef:
        digest = hmac.new(self._keys.get(version), f"mrn:v1:{normalised}".encode(), hashlib.sha256).digest()
        encoded = base64.urlsafe_b64encode(digest).decode().rstrip("=")
        return PatientRef(ref=f"p{version}_{encoded}", key_version=version)

    def ref(self, mrn: str) -> PatientRef:
        """The patient's ref under the current key: what new episodes store."""
        return self._ref(normalise_mrn(mrn), self._keys.current_version)

    def refs_for(self, mrn: str) -> list[PatientRef]:
        """The refs under every configured key version, current first: what look-ups match."""
        normalised = normalise_mrn(mrn)
        return [self._ref(normalised, v) for v in sorted(self._keys.keys, reverse=True)]
