"""The scale-out topology with real processes on this machine (DESIGN §7): a `chroma run` server,
N `jarvis serve` replicas and the scheduler, all against one PostgreSQL database.

    python scripts/topology.py secrets > topology.env          # once; keep the file private
    set -a; . ./topology.env; set +a
    python scripts/topology.py run --database-url postgresql://postgres@127.0.0.1:5432/jarvis

`run` prints the replica URLs and stops everything on Ctrl-C or SIGTERM. Replicas must share the
same secrets (JARVIS_MASTER_KEYS, JARVIS_PSEUDONYM_KEYS, JARVIS_AUDIT_KEY): they are passed to every
process explicitly and the processes run in production mode, which refuses to start without them.

The topology tests (tests/topology/) and the load benchmark (bench/load_soak.py) start the same
processes through this module. Each process runs in a session of its own (so its uvicorn workers
are stopped with it) and is stopped with SIGTERM, then SIGKILL; on Linux the kernel also kills it
if the process that started it dies, so nothing outlives a crashed test run.
"""

from __future__ import annotations

import argparse
import base64
import ctypes
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path
from types import TracebackType

BIN = Path(sys.executable).parent
SECRET_NAMES = ("JARVIS_MASTER_KEYS", "JARVIS_PSEUDONYM_KEYS", "JARVIS_AUDIT_KEY")
# Set per process by the topology itself; the same names in the caller's environment are ignored.
TOPOLOGY_NAMES = frozenset({"JARVIS_ENVIRONMENT", "JARVIS_DATABASE_URL", "JARVIS_DATA_DIR", "JARVIS_CHROMA_MODE",
                            "JARVIS_CHROMA_HOST", "JARVIS_CHROMA_PORT", "JARVIS_HOST", "JARVIS_PORT"})  # fmt: skip
_PR_SET_PDEATHSIG = 1


def new_secrets() -> dict[str, str]:
    """Fresh keys in the formats jarvis.security.keys expects (key rings and one audit key)."""

    def key() -> str:
        return base64.b64encode(secrets.token_bytes(32)).decode()

    return {
        "JARVIS_MASTER_KEYS": f"v1:{key()}",
        "JARVIS_PSEUDONYM_KEYS": f"v1:{key()}",
        "JARVIS_AUDIT_KEY": key(),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:
    """In the child before exec: SIGKILL when the starting process dies (Linux; elsewhere a no-op)."""
    try:
        ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        pass


def http_ok(url: str, timeout: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return bool(response.status == 200)
    except OSError:
        return False


class Service:
    """One process of the topology, its output in a log file."""

    def __init__(self, name: str, argv: list[str], env: Mapping[str, str], cwd: Path, log: Path) -> None:
        self.name, self.argv, self.env, self.cwd, self.log = name, argv, dict(env), cwd, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Service:
        self.cwd.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            self.process = subprocess.Popen(
                self.argv,
                env=self.env,
                cwd=self.cwd,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,  # a single prctl call: safe between fork and exec
            )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None, f"{self.name} was never started"
        return self.process.pid

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def signal(self, signum: int) -> None:
        """Signal the process itself (uvicorn's supervisor forwards SIGTERM to its workers)."""
        if self.running:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        """SIGKILL the process and everything in its session (uvicorn workers)."""
        if self.process is None:
            return
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM, wait, then SIGKILL; returns the exit code."""
        if self.process is None:
            return None
        if self.running:
            self.signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()  # also whatever the process left in its session
        return self.process.returncode

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace") if self.log.exists() else ""

    def wait_until(
        self, ready: str | None = None, log_line: str | None = None, timeout: float = 60.0
    ) -> None:
        """Until `ready` (a URL) answers 200 or `log_line` appears in the log; fails if the process exits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.running:
                raise RuntimeError(
                    f"{self.name} exited with {self.process and self.process.returncode}:\n{self.output()[-3000:]}"
                )
            if (ready and http_ok(ready)) or (log_line and log_line in self.output()):
                return
            time.sleep(0.1)
        raise RuntimeError(f"{self.name} not ready after {timeout:.0f} s:\n{self.output()[-3000:]}")


class Topology:
    """chroma run + replicas + scheduler against `database_url`, under `root` (logs, data dirs)."""

    def __init__(
        self,
        database_url: str,
        root: Path,
        secrets_: Mapping[str, str],
        *,
        chroma_port: int | None = None,
        settings: Mapping[str, str] | None = None,
    ) -> None:
        # Absolute: every process runs in a directory of its own under it.
        self.database_url, self.root, self.secrets = database_url, root.resolve(), dict(secrets_)
        self.chroma_port = chroma_port or free_port()
        self.settings = dict(settings or {})  # extra JARVIS_* for every process
        self.services: dict[str, Service] = {}
        self.urls: dict[str, str] = {}
        (self.root / "logs").mkdir(parents=True, exist_ok=True)

    # -- environment --------------------------------------------------------------------------
    def env(self, name: str, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """A clean environment (nothing JARVIS_* leaks in from ours) for the process `name`."""
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
        env.update(
            {
                "JARVIS_ENVIRONMENT": "production",
                "JARVIS_DATABASE_URL": self.database_url,
                "JARVIS_CHROMA_MODE": "http",
                "JARVIS_CHROMA_HOST": "127.0.0.1",
                "JARVIS_CHROMA_PORT": str(self.chroma_port),
                "JARVIS_DATA_DIR": str(self.root / name / "data"),
                **self.secrets,
                **{k: v for k, v in self.settings.items() if k not in TOPOLOGY_NAMES},
                **(extra or {}),
            }
        )
        return env

    def _service(self, name: str, argv: list[str], env: Mapping[str, str]) -> Service:
        if name in self.services and self.services[name].running:
            raise RuntimeError(f"{name} is already running")
        service = Service(name, argv, env, self.root / name, self.root / "logs" / f"{name}.log")
        self.services[name] = service
        return service.start()

    # -- processes ----------------------------------------------------------------------------
    def start_chroma(self, wait: bool = True) -> Service:
        """`chroma run` on the topology's port and path (a restart reuses both: same data)."""
        argv = [str(BIN / "chroma"), "run", "--path", str(self.root / "chroma" / "index"),
                "--host", "127.0.0.1", "--port", str(self.chroma_port)]  # fmt: skip
        env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
        service = self._service("chroma", argv, {**env, "ANONYMIZED_TELEMETRY": "FALSE"})
        if wait:
            self.wait_chroma(service)
        return service

    def wait_chroma(self, service: Service | None = None, timeout: float = 60.0) -> None:
        (service or self.services["chroma"]).wait_until(
            ready=f"http://127.0.0.1:{self.chroma_port}/api/v2/heartbeat", timeout=timeout
        )

    def start_replica(
        self,
        name: str,
        *,
        port: int | None = None,
        workers: int = 1,
        extra: Mapping[str, str] | None = None,
        wait: bool = True,
    ) -> Service:
        port = port or free_port()
        argv = [str(BIN / "jarvis"), "serve", "--host", "127.0.0.1", "--port", str(port),
                "--workers", str(workers), "--graceful-timeout", "30"]  # fmt: skip
        service = self._service(name, argv, self.env(name, extra))
        self.urls[name] = f"http://127.0.0.1:{port}"
        if wait:
            self.wait_replica(name)
        return service

    def wait_replica(self, name: str, timeout: float = 120.0) -> None:
        self.services[name].wait_until(ready=f"{self.urls[name]}/readyz", timeout=timeout)

    def start_scheduler(
        self, name: str = "scheduler", *, extra: Mapping[str, str] | None = None, wait: bool = True
    ) -> Service:
        # Started = its "scheduler started" log line, written at INFO.
        env = self.env(name, {**(extra or {}), "JARVIS_LOG_LEVEL": "INFO"})
        service = self._service(name, [sys.executable, "-m", "jobs.scheduler"], env)
        if wait:
            service.wait_until(log_line="scheduler started", timeout=120.0)
        return service

    def start(self, replicas: int = 2, *, scheduler: bool = True, ports: Iterable[int] = ()) -> list[str]:
        """Chroma first, then the replicas and the scheduler all at once (as compose would)."""
        self.start_chroma()
        given = list(ports)
        chosen = given + [free_port() for _ in range(replicas - len(given))]
        names = [f"replica-{i + 1}" for i in range(replicas)]
        for name, port in zip(names, chosen, strict=True):
            self.start_replica(name, port=port, wait=False)
        if scheduler:
            self.start_scheduler(wait=False)
        for name in names:
            self.wait_replica(name)
        if scheduler:
            self.services["scheduler"].wait_until(log_line="scheduler started", timeout=120.0)
        return [self.urls[name] for name in names]

    def create_keys(self, wanted: Iterable[tuple[str, str]]) -> list[str]:
        """Tokens of new API keys, [(role, subject), ...], made with `jarvis keys create` in parallel."""
        env = self.env("cli")
        (self.root / "cli").mkdir(parents=True, exist_ok=True)
        running = [
            subprocess.Popen(
                [str(BIN / "jarvis"), "keys", "create", "--role", role, "--subject", subject, "--json"],
                env=env,
                cwd=self.root / "cli",
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                preexec_fn=_die_with_parent,
            )  # fmt: skip
            for role, subject in wanted
        ]
        tokens = []
        for process in running:
            out, err = process.communicate(timeout=120)
            if process.returncode != 0:
                raise RuntimeError(f"jarvis keys create failed: {err.decode(errors='replace')[-2000:]}")
            tokens.append(str(json.loads(out)["token"]))
        return tokens

    def stop(self) -> dict[str, int | None]:
        """Stop everything, newest first (replicas before the stores they use)."""
        return {name: service.stop() for name, service in reversed(list(self.services.items()))}

    def __enter__(self) -> Topology:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def _run(args: argparse.Namespace) -> int:
    missing = [name for name in SECRET_NAMES if not os.environ.get(name)]
    if missing:
        sys.stderr.write(
            f"set {', '.join(missing)} first (python scripts/topology.py secrets > topology.env)\n"
        )
        return 2
    root = args.data_dir or Path(tempfile.mkdtemp(prefix="jarvis-topology-"))
    # Other JARVIS_* settings of this shell (a Gemini key, rate limits, ...) reach every process.
    settings = {
        key: value
        for key, value in os.environ.items()
        if key.startswith("JARVIS_") and key not in SECRET_NAMES and key not in TOPOLOGY_NAMES
    }
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    with Topology(args.database_url, root, {n: os.environ[n] for n in SECRET_NAMES},
                  chroma_port=args.chroma_port, settings=settings) as topology:  # fmt: skip
        ports = range(args.first_port, args.first_port + args.replicas)
        urls = topology.start(args.replicas, scheduler=not args.no_scheduler, ports=ports)
        sys.stdout.write(json.dumps({"replicas": urls, "chroma": f"http://127.0.0.1:{topology.chroma_port}",
                                     "logs": str(topology.root / "logs")}) + "\n")  # fmt: skip
        sys.stdout.flush()
        while not stop.wait(1.0):
            dead = [name for name, service in topology.services.items() if not service.running]
            if dead:
                sys.stderr.write(f"stopped unexpectedly: {', '.join(dead)}; see {topology.root / 'logs'}\n")
                return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("secrets", help="print fresh secrets as KEY=value lines")
    run = sub.add_parser("run", help="start chroma run, the replicas and the scheduler")
    run.add_argument("--database-url", required=True, help="postgresql://user[:password]@host:port/db")
    run.add_argument("--replicas", type=int, default=2)
    run.add_argument("--first-port", type=int, default=8100, help="replica i listens on first-port + i")
    run.add_argument("--chroma-port", type=int, default=8001)
    run.add_argument(
        "--data-dir", type=Path, help="logs, Chroma data and replica data dirs (default: a new temp dir)"
    )
    run.add_argument("--no-scheduler", action="store_true")
    args = parser.parse_args()
    if args.command == "secrets":
        sys.stdout.write("".join(f"{name}={value}\n" for name, value in new_secrets().items()))
        return 0
    return _run(args)


if __name__ == "__main__":
    sys.exit(main())
