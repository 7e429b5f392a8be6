"""Entry points for the `jarvis audit …` commands (wired in jarvis/cli).

The CLI runs on the server host with direct access to the database, so it is trusted; reading
the log for verification is itself audited, with actor "cli".
"""

from __future__ import annotations

from jarvis.audit.events import AuditEvent
from jarvis.audit.log import AuditLog
from jarvis.audit.verify import VerifyResult
from jarvis.config import Settings
from jarvis.memory.records.database import default_url, make_engine, migrate
from jarvis.security.keys import load_secrets


def open_audit_log(settings: Settings) -> AuditLog:
    """The audit log of the configured database, its schema upgraded to head."""
    engine = make_engine(settings.database_url or default_url(settings.data_dir))
    migrate(engine)
    return AuditLog(engine, load_secrets(settings).audit)


def verify_command(settings: Settings) -> VerifyResult:
    """`jarvis audit verify`: the /v1/audit/verify result for the configured database."""
    audit = open_audit_log(settings)
    try:
        result = audit.verify()
        audit.append(
            AuditEvent(
                action="E",
                subtype="audit.verify",
                actor="cli",
                role="cli",
                outcome="success",
                detail={"events_checked": result["events_checked"], "ok": 1 if result["ok"] else 0},
            )
        )
        return result
    finally:
        audit.engine.dispose()
