"""The API in-process (the real app, lifespan included) over real stores, with test keys per role."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from fastapi.testclient import TestClient

from jarvis.agent.factory import build_agent
from jarvis.api.app import create_app
from jarvis.api.resources import Resources
from jarvis.audit.log import AuditLog
from jarvis.config import Settings
from jarvis.memory.factory import open_memory
from jarvis.security.api_keys import ApiKeys
from jarvis.security.jwt_auth import JwtVerifier
from jarvis.security.keys import load_secrets

ISSUER, AUDIENCE = "https://idp.hospital.test", "jarvis-memory"


@dataclass
class Keys:
    doctor_a: str
    doctor_b: str
    admin: str
    auditor: str


@pytest.fixture(scope="session")
def signing_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def make_jwt(key: rsa.RSAPrivateKey, **claims: Any) -> str:
    now = int(time.time())
    payload = {
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": "dr-jwt",
        "jarvis_role": "clinician",
        "iat": now,
        "exp": now + 300,
    }
    payload.update(claims)
    return jwt.encode({k: v for k, v in payload.items() if v is not None}, key, algorithm="RS256")


@pytest.fixture
def settings(tmp_path: Path, signing_key: rsa.RSAPrivateKey) -> Settings:
    pem = (
        signing_key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )
    return Settings(
        data_dir=tmp_path / "data", jwt_issuer=ISSUER, jwt_audience=AUDIENCE, jwt_public_key=pem,
        rate_limit_per_minute=10_000, max_body_bytes=200_000,
    )  # fmt: skip


@pytest.fixture
def resources(settings: Settings, deid: Any, embedder: Any) -> Resources:
    memory = open_memory(settings, deid=deid, embedder=embedder)
    assert memory is not None
    return Resources(
        settings=settings,
        engine=memory.store.engine,
        deid=deid,
        memory=memory,
        agent=build_agent(settings, memory=memory, deid=deid),
        api_keys=ApiKeys(memory.store.engine),
        jwt=JwtVerifier.from_settings(settings),
        audit=AuditLog(memory.store.engine, load_secrets(settings).audit),
    )


@pytest.fixture
def client(settings: Settings, resources: Resources) -> Iterator[TestClient]:
    with TestClient(create_app(settings, resources), client=("127.0.0.1", 50000)) as test_client:
        yield test_client


@pytest.fixture
def keys(resources: Resources) -> Keys:
    create = resources.api_keys.create
    return Keys(
        doctor_a=create("clinician", "dr-a").token,
        doctor_b=create("clinician", "dr-b").token,
        admin=create("admin", "ops-1").token,
        auditor=create("auditor", "audit-1").token,
    )


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
