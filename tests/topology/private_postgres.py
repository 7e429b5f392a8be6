"""A PostgreSQL server of the test's own, so that restarting it disturbs nobody else.

initdb and pg_ctl run as the `postgres` user (`runuser -u postgres --`), in a new directory under
the system temp dir owned by that user, listening on 127.0.0.1 on a free port with trust auth and
fsync off (the data is thrown away). `unavailable()` says why it cannot be done here, if it cannot.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import tempfile
from pathlib import Path

from scripts.topology import free_port


def _bin_dir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def unavailable() -> str | None:
    """Why no private server can be started here, or None."""
    if _bin_dir() is None:
        return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    if shutil.which("runuser") is None or os.geteuid() != 0:
        return "starting a private PostgreSQL needs root (runuser -u postgres)"
    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "no postgres user to run a private PostgreSQL server as"
    return None


class PrivatePostgres:
    def __init__(self) -> None:
        bin_dir = _bin_dir()
        assert bin_dir is not None, unavailable()
        self.bin_dir = bin_dir
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="jarvis-pg-"))
        user = pwd.getpwnam("postgres")
        os.chown(self.root, user.pw_uid, user.pw_gid)
        self.data = self.root / "data"

    def _as_postgres(self, *argv: str, timeout: float = 60.0) -> None:
        result = subprocess.run(
            ["runuser", "-u", "postgres", "--", *argv], capture_output=True, text=True, timeout=timeout
        )
        if result.returncode != 0:
            raise RuntimeError(f"{Path(argv[0]).name} failed: {result.stderr[-2000:]}")

    def init(self) -> PrivatePostgres:
        self._as_postgres(
            str(self.bin_dir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        return self

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c full_page_writes=off -c synchronous_commit=off"
        )
        self._as_postgres(
            str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
            "-o", options, "-w", "-t", "60", "start",
        )  # fmt: skip

    def stop(self, mode: str = "fast") -> None:
        """`fast` ends every session (clients see their connections drop); `immediate` is a crash."""
        self._as_postgres(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def destroy(self) -> None:
        """Stop the server if it runs (whatever state the test left it in) and remove its files."""
        if (self.data / "postmaster.pid").exists():
            try:
                self.stop("immediate")
            except RuntimeError:
                pass
        shutil.rmtree(self.root, ignore_errors=True)
