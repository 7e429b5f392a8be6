"""OIDC JWT bearer tokens: signature against configured public keys or a JWKS, issuer, audience,
expiry and not-before with a small clock skew; configured claims give the role and doctor id."""

from __future__ import annotations

import re
from typing import Any

import jwt

from jarvis.config import Settings
from jarvis.errors import ConfigurationError
from jarvis.memory.validation import doctor_id as valid_subject
from jarvis.security.principal import Principal, Role

_PEM = re.compile(r"-----BEGIN PUBLIC KEY-----.+?-----END PUBLIC KEY-----", re.DOTALL)


class JwtVerifier:
    def __init__(self, settings: Settings) -> None:
        if not (settings.jwt_issuer and settings.jwt_audience):
            raise ConfigurationError("JWT needs JARVIS_JWT_ISSUER and JARVIS_JWT_AUDIENCE")
        self._keys = [m.group(0) for m in _PEM.finditer(settings.jwt_public_key or "")]
        self._jwks = (
            jwt.PyJWKClient(settings.jwt_jwks_url, cache_keys=True) if settings.jwt_jwks_url else None
        )
        if not self._keys and self._jwks is None:
            raise ConfigurationError("JWT needs JARVIS_JWT_PUBLIC_KEY or JARVIS_JWT_JWKS_URL")
        self._settings = settings

    @classmethod
    def from_settings(cls, settings: Settings) -> JwtVerifier | None:
        """None when JWT is not configured (API keys only)."""
        if not (settings.jwt_public_key or settings.jwt_jwks_url):
            return None
        return cls(settings)

    def _decode(self, token: str, key: Any) -> dict[str, Any]:
        s = self._settings
        claims: dict[str, Any] = jwt.decode(
            token,
            key,
            algorithms=s.jwt_algorithms,
            audience=s.jwt_audience,
            issuer=s.jwt_issuer,
            leeway=s.jwt_leeway_s,
            options={"require": ["exp", "iss", "aud"]},
        )
        return claims

    def authenticate(self, token: str) -> Principal | None:
        """The principal of a valid token, or None (expired, wrong issuer/audience, bad signature...)."""
        claims: dict[str, Any] | None = None
        try:
            if self._jwks is not None:
                claims = self._decode(token, self._jwks.get_signing_key_from_jwt(token).key)
            else:
                for key in self._keys:
                    try:
                        claims = self._decode(token, key)
                        break
                    except jwt.InvalidSignatureError:
                        continue
        except (jwt.PyJWTError, ValueError):
            return None
        if claims is None:
            return None
        try:
            role = Role(str(claims.get(self._settings.jwt_role_claim, "")))
            subject = claims.get(self._settings.jwt_doctor_claim)
            subject = valid_subject(subject) if isinstance(subject, str) else None
        except (ValueError, Exception):  # noqa: BLE001 - any unusable claim means "not authenticated"
            return None
        if role is Role.CLINICIAN and subject is None:
            return None
        return Principal(role, subject, key_id=None, method="jwt")
