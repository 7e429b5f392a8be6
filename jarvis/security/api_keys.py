"""API keys: `jvk_<key id>.<secret>`, shown once, stored as SHA-256 of the secret, revocable.

The secret is 32 random bytes, so a plain SHA-256 is enough (no password stretching needed), and
hashes are compared in constant time. An unknown key id costs the same comparison as a known one.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import DateTime, Engine, String, func, select, update
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, Session, mapped_column

from jarvis.errors import InputError, UnavailableError
from jarvis.memory.records.tables import Base
from jarvis.memory.validation import doctor_id as valid_subject
from jarvis.security.principal import Principal, Role

PREFIX = "jvk_"
_TOKEN = re.compile(r"jvk_(?P<key_id>[A-Za-z0-9_-]{12})\.(?P<secret>[A-Za-z0-9_-]{43})")
_DUMMY_HASH = hashlib.sha256(b"no such key").hexdigest()


class ApiKeyRow(Base):
    __tablename__ = "api_keys"

    key_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    secret_hash: Mapped[str] = mapped_column(String(64))
    role: Mapped[str] = mapped_column(String(16))
    subject: Mapped[str | None] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class NewKey:
    key_id: str
    token: str  # shown once
    role: Role
    subject: str | None


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """What an admin may see of a key: never its secret or hash."""

    key_id: str
    role: Role
    subject: str | None
    created_at: datetime
    revoked_at: datetime | None


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _aware(value: datetime) -> datetime:
    """SQLite hands timestamps back naive; they were written in UTC."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _info(row: ApiKeyRow) -> KeyInfo:
    revoked = _aware(row.revoked_at) if row.revoked_at is not None else None
    return KeyInfo(row.key_id, Role(row.role), row.subject, _aware(row.created_at), revoked)


class ApiKeys:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def create(self, role: str, subject: str | None = None) -> NewKey:
        try:
            chosen = Role(role)
        except ValueError:
            raise InputError("role must be clinician, admin or auditor") from None
        if chosen is Role.CLINICIAN and not subject:
            raise InputError("a clinician key needs a subject (the doctor id)")
        if subject is not None:
            valid_subject(subject)
        key_id, secret = secrets.token_urlsafe(9), secrets.token_urlsafe(32)
        row = ApiKeyRow(
            key_id=key_id,
            secret_hash=_hash(secret),
            role=chosen,
            subject=subject,
            created_at=datetime.now(UTC),
        )
        with self._session() as session, session.begin():
            session.add(row)
        return NewKey(key_id, f"{PREFIX}{key_id}.{secret}", chosen, subject)

    def authenticate(self, token: str) -> Principal | None:
        match = _TOKEN.fullmatch(token)
        if match is None:
            return None
        with self._session() as session:
            row = session.get(ApiKeyRow, match["key_id"])
        # Compare even for an unknown id, so response time does not tell which ids exist.
        expected = row.secret_hash if row is not None else _DUMMY_HASH
        if (
            not hmac.compare_digest(expected, _hash(match["secret"]))
            or row is None
            or row.revoked_at is not None
        ):
            return None
        return Principal(Role(row.role), row.subject, key_id=row.key_id)

    def revoke(self, key_id: str) -> bool:
        with self._session() as session, session.begin():
            result = session.execute(
                update(ApiKeyRow)
                .where(ApiKeyRow.key_id == key_id, ApiKeyRow.revoked_at.is_(None))
                .values(revoked_at=datetime.now(UTC))
            )
            return bool(result.rowcount)  # type: ignore[attr-defined]

    def list_keys(self, limit: int) -> list[KeyInfo]:
        """The newest `limit` keys, revoked ones included (an admin needs to see what was revoked)."""
        with self._session() as session:
            rows = session.scalars(
                select(ApiKeyRow).order_by(ApiKeyRow.created_at.desc(), ApiKeyRow.key_id).limit(limit)
            ).all()
        return [_info(row) for row in rows]

    def count_active(self, role: Role | None = None) -> int:
        with self._session() as session:
            query = select(func.count()).select_from(ApiKeyRow).where(ApiKeyRow.revoked_at.is_(None))
            if role is not None:
                query = query.where(ApiKeyRow.role == role)
            return int(session.scalar(query) or 0)

    @contextmanager
    def _session(self) -> Iterator[Session]:
        """A session whose driver errors surface as UnavailableError (type name only)."""
        try:
            with Session(self.engine, expire_on_commit=False) as session:
                yield session
        except SQLAlchemyError as exc:
            raise UnavailableError(f"key store unavailable ({type(exc).__name__})") from exc
