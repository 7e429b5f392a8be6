"""Who is calling: the role and, for clinicians, the doctor id — taken only from the token."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    CLINICIAN = "clinician"
    ADMIN = "admin"
    AUDITOR = "auditor"


@dataclass(frozen=True, slots=True)
class Principal:
    role: Role
    subject: str | None  # the doctor id for clinicians; the admin's or auditor's own id otherwise
    key_id: str | None = None  # API key id, or None for a JWT
    method: str = "api_key"

    @property
    def actor(self) -> str:
        """What the audit log records as the actor: never a secret, never a name."""
        return self.subject or (f"key:{self.key_id}" if self.key_id else "unknown")
