"""The hash chain and checkpoint signatures, both HMAC-SHA256 under the audit key.

    h_0 = 32 zero bytes (the genesis)
    h_i = HMAC(audit key, h_{i-1} || canonical(event_i))
    checkpoint signature = HMAC(audit key, "checkpoint:v1:<seq>:<head hex>:<signed_at>")

Hashes are stored as lower-case hex. Without the key nobody can forge a link or a checkpoint;
the checkpoint message starts with a fixed ASCII prefix, which a chain message (32 random bytes
first) cannot collide with in practice.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import datetime

from jarvis.audit.events import format_time
from jarvis.errors import ConfigurationError

GENESIS = bytes(32)
GENESIS_HEX = GENESIS.hex()
MIN_KEY_BYTES = 32


def check_key(key: bytes) -> bytes:
    if not isinstance(key, bytes) or len(key) < MIN_KEY_BYTES:
        raise ConfigurationError(f"the audit key must be at least {MIN_KEY_BYTES} bytes")
    return key


def link(key: bytes, prev_hex: str, body: bytes) -> str:
    """h_i from h_{i-1} (hex) and the canonical bytes of event i."""
    return hmac.new(key, bytes.fromhex(prev_hex) + body, hashlib.sha256).hexdigest()


@dataclass(frozen=True, slots=True)
class Checkpoint:
    seq: int
    head: str
    signed_at: datetime
    signature: str


def _message(seq: int, head: str, signed_at: datetime) -> bytes:
    return f"checkpoint:v1:{seq}:{head}:{format_time(signed_at)}".encode()


def sign_checkpoint(key: bytes, seq: int, head: str, signed_at: datetime) -> Checkpoint:
    signature = hmac.new(key, _message(seq, head, signed_at), hashlib.sha256).hexdigest()
    return Checkpoint(seq, head, signed_at, signature)


def checkpoint_is_authentic(key: bytes, checkpoint: Checkpoint) -> bool:
    expected = sign_checkpoint(key, checkpoint.seq, checkpoint.head, checkpoint.signed_at).signature
    return hmac.compare_digest(expected, checkpoint.signature)


def same_hash(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())
