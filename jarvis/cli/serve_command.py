"""`jarvis serve [--host 127.0.0.1] [--port 8000] [--workers N]`: the web API with uvicorn.

Shutdown (SIGTERM or SIGINT) is graceful: the listening socket closes at once, so new connections
are refused (a load balancer retries them on another replica), requests in flight run to
completion for up to --graceful-timeout seconds, then the lifespan closes the stores. Give the
process manager a longer stop timeout than that (compose: stop_grace_period). uvicorn re-raises the
signal once it is done, so a graceful stop can end with status 143 (killed by SIGTERM).
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from jarvis.config import Settings, get_settings
from jarvis.errors import ConfigurationError
from jarvis.heap import tune_heap

if TYPE_CHECKING:  # the CLI imports this module for every command; FastAPI and uvicorn only when serving
    from fastapi import FastAPI
    from uvicorn import Config

DEFAULT_GRACEFUL_TIMEOUT_S = 30


def worker_app() -> FastAPI:
    """The app of one worker process (`--workers` > 1): settings come from the environment."""
    from jarvis.api.app import create_app
    from jarvis.logging_setup import configure_logging

    # A spawned process: neither the CLI's heap settings nor its logging set-up are inherited.
    tune_heap()
    settings = get_settings()
    configure_logging(settings.log_level, settings.log_json)
    return create_app(settings)


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from jarvis.api.app import create_app

    tune_heap()  # before the server and the stores start their threads
    workers = args.workers
    if workers < 1:
        raise ConfigurationError("--workers must be at least 1")
    if workers > 1 and settings.chroma_mode == "embedded":
        # Each worker is a process of its own; an embedded Chroma directory must have one writer.
        raise ConfigurationError("--workers above 1 needs a Chroma server (JARVIS_CHROMA_MODE=http)")
    options: dict[str, Any] = {
        "host": args.host or settings.host,
        "port": args.port or settings.port,
        "log_config": None,
        "access_log": False,
        "timeout_graceful_shutdown": args.graceful_timeout,
        # Behind a reverse proxy: the client address (audit `source`) comes from X-Forwarded-For,
        # but only on connections from these addresses.
        "forwarded_allow_ips": args.forwarded_allow_ips,
    }
    if workers == 1:
        # One process per replica by default; scale out with replicas behind a load balancer (DESIGN §7).
        uvicorn.run(create_app(settings), **options)
        return 0
    # Worker processes are spawned afresh and build their settings from the environment; pass the
    # one setting that may have come from the command line (--data-dir) along that way.
    os.environ["JARVIS_DATA_DIR"] = str(settings.data_dir)
    config = uvicorn.Config("jarvis.cli.serve_command:worker_app", factory=True, workers=workers, **options)
    _serve_workers(config)
    return 0


def _serve_workers(config: Config) -> None:
    """uvicorn's multi-process supervisor, except that on shutdown the parent closes its own copy
    of the listening socket before it stops the workers. uvicorn keeps it open until every worker
    has drained, so meanwhile the kernel goes on accepting connections into the backlog that no one
    will serve: clients hang (and are then reset) instead of being refused and trying elsewhere."""
    from uvicorn.supervisors.multiprocess import Multiprocess

    class ClosingSupervisor(Multiprocess):
        def terminate_all(self) -> None:
            for sock in self.sockets:
                sock.close()  # the workers close theirs as they start draining: the port is shut
            super().terminate_all()

    ClosingSupervisor(config, sockets=[config.bind_socket()]).run()


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the web API")
    serve.add_argument("--host", help="address to listen on (default: JARVIS_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: JARVIS_PORT, 8000)")
    serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="worker processes sharing the port (default 1; above 1 needs a Chroma server)",
    )
    serve.add_argument(
        "--graceful-timeout",
        type=int,
        default=DEFAULT_GRACEFUL_TIMEOUT_S,
        help=f"seconds requests in flight may take to finish on shutdown (default {DEFAULT_GRACEFUL_TIMEOUT_S})",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        help="comma-separated proxy addresses trusted for X-Forwarded-For ('*' only when nothing "
        "but the proxy can reach this port)",
    )
    serve.set_defaults(handler=cmd_serve)
