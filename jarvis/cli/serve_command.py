"""`jarvis serve [--host 127.0.0.1] [--port 8000]`: the web API with uvicorn."""

from __future__ import annotations

import argparse

from jarvis.config import Settings


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    import uvicorn

    from jarvis.api.app import create_app

    host = args.host or settings.host
    port = args.port or settings.port
    # One process per replica; scale out with more replicas behind a load balancer (DESIGN §7).
    uvicorn.run(create_app(settings), host=host, port=port, log_config=None, access_log=False)
    return 0


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser("serve", help="run the web API")
    serve.add_argument("--host", help="address to listen on (default: JARVIS_HOST, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default: JARVIS_PORT, 8000)")
    serve.set_defaults(handler=cmd_serve)
