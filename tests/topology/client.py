"""What the topology tests say to the replicas, and what they look at in the database."""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from sqlalchemy import Engine, text

# Clinical-looking text with a name and an MRN: none of it may show up in a log line.
PATIENT = {"id": "00482913", "name": "Gita Bhat"}
SEPSIS_QUERY = "Gita Bhat has urosepsis, lactate 4.1, allergic to penicillin. Which antibiotics?"
SEPSIS_RESPONSE = "Start cefepime 2 g IV every 8 hours after blood cultures; add vancomycin if MRSA risk."
PHI = ("Gita Bhat", "00482913")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Api:
    """One replica, as one caller (token) sees it."""

    base: str
    token: str
    timeout: float = 60.0

    def call(self, method: str, path: str, body: Any = None, request_id: str | None = None) -> httpx.Response:
        headers = bearer(self.token)
        if request_id is not None:
            headers["X-Request-ID"] = request_id
        return httpx.request(method, self.base + path, json=body, headers=headers, timeout=self.timeout)

    def save(self, query: str = SEPSIS_QUERY, **fields: Any) -> httpx.Response:
        episode = {"query": query, "response": SEPSIS_RESPONSE, "patient": PATIENT, **fields}
        return self.call("POST", "/v1/episodes", {"episodes": [episode]})

    def ask(self, query: str = SEPSIS_QUERY, **fields: Any) -> httpx.Response:
        return self.call("POST", "/v1/ask", {"query": query, "patient": PATIENT, **fields})

    def search(self, query: str = "urosepsis antibiotics", k: int = 10) -> httpx.Response:
        return self.call("POST", "/v1/memory/search", {"query": query, "k": k, "min_similarity": -1.0})

    def get(self, episode_id: str) -> httpx.Response:
        return self.call("GET", f"/v1/episodes/{episode_id}")

    def outcome(self, episode_id: str, outcome: str = "accepted") -> httpx.Response:
        return self.call("POST", f"/v1/episodes/{episode_id}/outcome", {"outcome": outcome})

    def as_(self, token: str) -> Api:
        return Api(self.base, token, self.timeout)


@dataclass(frozen=True)
class Exchange:
    replica: int
    kind: str
    sent: str  # the phase when the request was sent ...
    answered: str  # ... and when its answer came
    response: httpx.Response


class Traffic:
    """Saves, asks and searches from `workers` threads, alternating between the given replicas,
    until the block ends. `phase` is set by the test; each exchange records it when sent and answered."""

    def __init__(self, apis: list[Api], workers: int = 4) -> None:
        self.apis, self.phase = apis, "before"
        self.exchanges: list[Exchange] = []
        self._stop = threading.Event()
        self._counter = itertools.count()
        self._threads = [threading.Thread(target=self._run) for _ in range(workers)]

    def _run(self) -> None:
        while not self._stop.is_set():
            n = next(self._counter)
            replica, kind = n % len(self.apis), ("save", "ask", "search")[n // len(self.apis) % 3]
            api, sent = self.apis[replica], self.phase
            if kind == "save":
                response = api.save(f"Septic shock case {n}: norepinephrine and cultures, then what?")
            elif kind == "ask":
                response = api.ask(f"Urosepsis case {n}: which antibiotics after cultures?")
            else:
                response = api.search(f"septic shock {n}")
            self.exchanges.append(Exchange(replica, kind, sent, self.phase, response))

    def __enter__(self) -> Traffic:
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=120)

    def within(self, phase: str, kind: str) -> list[httpx.Response]:
        return [e.response for e in self.exchanges if e.sent == e.answered == phase and e.kind == kind]

    def saved_after_recovery(self, replica: int) -> bool:
        return any(e.sent == "up" and e.kind == "save" and e.response.status_code == 201
                   for e in self.exchanges if e.replica == replica)  # fmt: skip


def acknowledged(response: httpx.Response) -> list[str]:
    """Episode ids the service said it saved (a 2xx save or an ask that returned an episode id)."""
    if not response.is_success:
        return []
    body = response.json()
    if "episode_ids" in body:
        return list(body["episode_ids"])
    return [body["episode_id"]] if body.get("episode_id") else []


def is_clean_error(response: httpx.Response, status: int, code: str = "unavailable") -> bool:
    """The documented error envelope with that status and code (a 500 with a traceback is not)."""
    try:
        error = response.json()["error"]
    except (ValueError, KeyError, TypeError):
        return False
    return response.status_code == status and error.get("code") == code and bool(error.get("request_id"))


def wait_for(check: Callable[[], bool], timeout: float, every: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(every)
    return check()


# -- the database, looked at directly ---------------------------------------------------------------
def episode_states(engine: Engine, doctor_id: str) -> dict[str, str]:
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT id, state FROM episodes WHERE doctor_id = :d"), {"d": doctor_id}
        ).all()
    return {str(r.id): str(r.state) for r in rows}


def audit_head(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(text("SELECT coalesce(max(seq), 0) FROM audit_events")).scalar() or 0)


def audit_events_after(engine: Engine, seq: int) -> list[dict[str, Any]]:
    with engine.connect() as connection:
        rows = connection.execute(
            text("SELECT event FROM audit_events WHERE seq > :s ORDER BY seq"), {"s": seq}
        ).all()
    return [json.loads(r.event) for r in rows]
