"""Alembic environment. Run programmatically by jarvis.memory.records.database.migrate(), which
passes an open connection; `alembic` on the command line is not needed to deploy."""

from __future__ import annotations

from alembic import context

from jarvis.memory.records.tables import Base

connection = context.config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the programmatic path is supported
    raise RuntimeError("run migrations through jarvis.memory.records.database.migrate()")

context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
