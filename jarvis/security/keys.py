"""Secrets: versioned key rings for the master and pseudonym keys, and the audit key.

A key ring is written "v2:<base64>,v1:<base64>": every key is 32 random bytes, the highest version
is the one used for new data, older versions stay readable (rotation). Secrets come from the
settings (JARVIS_MASTER_KEYS, JARVIS_PSEUDONYM_KEYS, JARVIS_AUDIT_KEY), else from a JSON secrets
file. In development a missing secrets file is generated in the data directory with mode 0600;
production refuses to start without every secret, so a lost file can never silently become new keys.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from jarvis.config import Settings
from jarvis.errors import ConfigurationError

KEY_BYTES = 32
SECRETS_FILE_NAME = "secrets.json"


def _decode_key(text: str, what: str) -> bytes:
    try:
        key = base64.b64decode(text.strip(), validate=True)
    except (binascii.Error, ValueError):
        raise ConfigurationError(f"{what} is not valid base64") from None
    if len(key) != KEY_BYTES:
        raise ConfigurationError(f"{what} must be {KEY_BYTES} bytes, got {len(key)}")
    return key


def new_key() -> str:
    """A fresh random key, base64-encoded."""
    return base64.b64encode(secrets.token_bytes(KEY_BYTES)).decode()


@dataclass(frozen=True, slots=True)
class KeyRing:
    """Keys by version; the highest version is current."""

    keys: Mapping[int, bytes]

    def __post_init__(self) -> None:
        if not self.keys:
            raise ConfigurationError("a key ring needs at least one key")

    @classmethod
    def parse(cls, text: str, what: str = "key ring") -> KeyRing:
        keys: dict[int, bytes] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            label, sep, encoded = item.partition(":")
            if not sep or not label.startswith("v") or not label[1:].isdigit():
                raise ConfigurationError(f"{what}: entries look like v1:<base64 key>")
            version = int(label[1:])
            if version < 1 or version in keys:
                raise ConfigurationError(f"{what}: versions are positive and unique")
            keys[version] = _decode_key(encoded, f"{what} v{version}")
        return cls(keys)

    def format(self) -> str:
        return ",".join(
            f"v{v}:{base64.b64encode(k).decode()}" for v, k in sorted(self.keys.items(), reverse=True)
        )

    @property
    def current_version(self) -> int:
        return max(self.keys)

    @property
    def current(self) -> bytes:
        return self.keys[self.current_version]

    def get(self, version: int) -> bytes:
        try:
            return self.keys[version]
        except KeyError:
            raise ConfigurationError(f"key version {version} is not configured") from None

    def with_new_version(self) -> KeyRing:
        """This ring plus a fresh key as the new current version (for rotation)."""
        return KeyRing({**self.keys, self.current_version + 1: secrets.token_bytes(KEY_BYTES)})


@dataclass(frozen=True, slots=True)
class Secrets:
    master: KeyRing
    pseudonym: KeyRing
    audit: bytes


def _from_file(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ConfigurationError("the secrets file cannot be read as JSON") from None
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ConfigurationError("the secrets file must be a JSON object of strings")
    return data


def _write_new_file(path: Path) -> dict[str, str]:
    data = {
        "master_keys": f"v1:{new_key()}",
        "pseudonym_keys": f"v1:{new_key()}",
        "audit_key": new_key(),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    # O_EXCL: never overwrite keys another process just generated; 0600 from the first byte.
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
    return data


def save_secrets(path: Path, secrets_: Secrets) -> None:
    """Rewrite a secrets file atomically (used by key rotation), keeping mode 0600."""
    data = {
        "master_keys": secrets_.master.format(),
        "pseudonym_keys": secrets_.pseudonym.format(),
        "audit_key": base64.b64encode(secrets_.audit).decode(),
    }
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(data, out)
    os.replace(tmp, path)


def secrets_path(settings: Settings) -> Path:
    return settings.secrets_file or settings.data_dir / SECRETS_FILE_NAME


def load_secrets(settings: Settings) -> Secrets:
    """Secrets from settings first, then the secrets file (generated in development only)."""
    values = {
        "master_keys": settings.master_keys.get_secret_value() if settings.master_keys else None,
        "pseudonym_keys": settings.pseudonym_keys.get_secret_value() if settings.pseudonym_keys else None,
        "audit_key": settings.audit_key.get_secret_value() if settings.audit_key else None,
    }
    if not all(values.values()):
        path = secrets_path(settings)
        if path.exists():
            stored = _from_file(path)
        elif settings.environment == "production":
            raise ConfigurationError(
                "production needs JARVIS_MASTER_KEYS, JARVIS_PSEUDONYM_KEYS and JARVIS_AUDIT_KEY"
            )
        else:
            stored = _write_new_file(path)
        values = {name: value or stored.get(name) for name, value in values.items()}
    missing = sorted(name for name, value in values.items() if not value)
    if missing:
        raise ConfigurationError(f"missing secrets: {', '.join(missing)}")
    return Secrets(
        master=KeyRing.parse(str(values["master_keys"]), "master keys"),
        pseudonym=KeyRing.parse(str(values["pseudonym_keys"]), "pseudonym keys"),
        audit=_decode_key(str(values["audit_key"]), "audit key"),
    )
