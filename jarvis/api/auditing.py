"""One call per access for the routes: what was done, by whom, to which episodes and patients.

Wired to the audit log (jarvis/audit) in the lifespan; a failed audit write fails the request.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from fastapi import Request
from starlette.concurrency import run_in_threadpool

from jarvis.errors import JarvisError

logger = logging.getLogger(__name__)


@contextmanager
def undo_on_failure(undo: Callable[[], object]) -> Iterator[None]:
    """For a write already made: if its audit event cannot be written, undo the write and fail."""
    try:
        yield
    except JarvisError:
        try:
            undo()
        except JarvisError:
            logger.error("could not undo a write whose audit event failed")
        raise


async def record(
    request: Request,
    action: str,
    name: str,
    outcome: str = "success",
    *,
    episode_ids: Sequence[str] = (),
    patient_refs: Sequence[str] = (),
    detail: dict[str, int] | None = None,
) -> None:
    """Append one audit event for this request (actor, role, address and request id from the
    request) and return once it is committed. The append waits for the database (and for other
    appends sharing its transaction), so it runs in a worker thread, never on the event loop."""
    audit = getattr(request.app.state, "audit", None)
    if audit is None:
        return
    principal = getattr(request.state, "principal", None)
    started = time.perf_counter()
    await run_in_threadpool(
        audit.record,
        action=action,
        name=name,
        actor=principal.actor if principal else "anonymous",
        role=principal.role.value if principal else "none",
        source=request.client.host if request.client else None,
        request_id=getattr(request.state, "request_id", None),
        outcome=outcome,
        episode_ids=list(episode_ids),
        patient_refs=list(patient_refs),
        detail=detail or {},
    )
    metrics = getattr(request.app.state, "metrics", None)
    if metrics is not None:
        metrics.audit_seconds.observe(time.perf_counter() - started)
