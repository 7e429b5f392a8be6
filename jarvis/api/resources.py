"""Everything heavy the API needs, built once in the lifespan (never at import time)."""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from sqlalchemy import Engine

from deid import Deidentifier
from jarvis.agent.factory import build_agent
from jarvis.agent.loop import Agent
from jarvis.audit.log import AuditLog
from jarvis.config import Settings
from jarvis.memory.factory import build_deidentifier, open_memory, prepare_data_dir
from jarvis.memory.records.database import default_url, make_engine, migrate
from jarvis.memory.service import MemoryService
from jarvis.security.api_keys import ApiKeys
from jarvis.security.jwt_auth import JwtVerifier
from jarvis.security.keys import load_secrets
from jarvis.security.principal import Role

logger = logging.getLogger(__name__)


@dataclass
class Resources:
    settings: Settings
    engine: Engine
    deid: Deidentifier
    memory: MemoryService | None
    agent: Agent
    api_keys: ApiKeys
    jwt: JwtVerifier | None
    audit: AuditLog


def build_resources(settings: Settings) -> Resources:
    prepare_data_dir(settings)
    secrets = load_secrets(settings)  # refuse to start without secrets in production, before anything else
    deid = build_deidentifier(settings)
    memory = open_memory(settings, deid=deid)
    engine = (
        memory.store.engine
        if memory
        else make_engine(settings.database_url or default_url(settings.data_dir))
    )
    if memory is None:
        migrate(engine)
    api_keys = ApiKeys(engine)
    ensure_first_admin_key(settings, api_keys)
    return Resources(
        settings=settings,
        engine=engine,
        deid=deid,
        memory=memory,
        agent=build_agent(settings, memory=memory, deid=deid),
        api_keys=api_keys,
        jwt=JwtVerifier.from_settings(settings),
        audit=AuditLog(engine, secrets.audit),
    )


FIRST_ADMIN_KEY_FILE = "first-admin-key.txt"


def ensure_first_admin_key(settings: Settings, api_keys: ApiKeys) -> None:
    """On the first start with no keys at all, create one admin key and leave it, readable only by
    the service's user, in the data directory; the log says where (never the key itself)."""
    if api_keys.count_active() > 0:
        return
    key = api_keys.create(Role.ADMIN, "first-admin")
    path = settings.data_dir / FIRST_ADMIN_KEY_FILE
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(key.token + "\n")
    logger.warning(
        "no API keys existed: created admin key %s; read it once from %s, then delete that file",
        key.key_id,
        path,
    )
