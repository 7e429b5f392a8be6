"""The `jarvis` command. It runs on the server host with direct access to the stores (trusted).

jarvis [--data-dir DIR] deid [FILE|-] [--jsonl --field F] [--known-name NAME ...] [--spans] [--json]
jarvis [--data-dir DIR] import FILE.jsonl --doctor ID [--json]
jarvis [--data-dir DIR] search --doctor ID (--query TEXT | --queries FILE.jsonl) [--k N]
                               [--patient-id P] [--json]

--data-dir may also come after the command ("jarvis keys create --data-dir DIR ...").
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from jarvis.cli import (
    agent_commands,
    audit_commands,
    deid_command,
    demo,
    keys_commands,
    memory_commands,
    retention_commands,
    serve_command,
)
from jarvis.config import Settings, get_settings
from jarvis.errors import JarvisError
from jarvis.logging_setup import configure_logging

DATA_DIR_HELP = "data directory (default: JARVIS_DATA_DIR or ./data)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="jarvis", description="Jarvis memory command line")
    parser.add_argument("--data-dir", type=Path, help=DATA_DIR_HELP)
    sub = parser.add_subparsers(dest="command", required=True)
    deid_command.add_parser(sub)
    memory_commands.add_parsers(sub)
    keys_commands.add_parsers(sub)
    agent_commands.add_parsers(sub)
    demo.add_parser(sub)
    serve_command.add_parser(sub)
    audit_commands.add_parsers(sub)
    retention_commands.add_parsers(sub)
    _data_dir_anywhere(parser)
    return parser


def _data_dir_anywhere(parser: argparse.ArgumentParser) -> None:
    """Accept --data-dir after the (sub)command as well ("jarvis keys create --data-dir D ...").
    SUPPRESS as the default: a subcommand that is not given it leaves the top-level value alone."""
    for action in parser._actions:  # noqa: SLF001 - argparse has no public walk of its subparsers
        if isinstance(action, argparse._SubParsersAction):  # noqa: SLF001
            for child in action.choices.values():
                if not any("--data-dir" in a.option_strings for a in child._actions):  # noqa: SLF001
                    child.add_argument("--data-dir", type=Path, default=argparse.SUPPRESS, help=DATA_DIR_HELP)
                _data_dir_anywhere(child)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings: Settings = get_settings()
    if args.data_dir is not None:
        settings = settings.model_copy(update={"data_dir": args.data_dir})
    configure_logging(settings.log_level, settings.log_json)
    try:
        code: int = args.handler(args, settings)
    except JarvisError as exc:
        # Messages of the service's errors never carry PHI; the code tells scripts what happened.
        sys.stderr.write(f"jarvis {args.command}: {exc.message} ({exc.code})\n")
        return 1
    return code


if __name__ == "__main__":
    sys.exit(main())
