"""The ``spielcenter`` command: one sub-command module per room.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its sub-commands
and sets ``func`` (taking the parsed arguments, returning the exit status) on each.

A command imports only the modules that register it (``COMMANDS``): ``spielcenter deal cruel``
never imports the Speedquilt bots and their numpy, which took most of its half second. Help, an
unknown command or none at all import every module, so the list of commands is whole.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMAND_MODULES = [
    "spielcenter.cli.solve",
    "spielcenter.cli.winnable",
    "spielcenter.cli.patience",
    "spielcenter.cli.serve",
    "spielcenter.cli.speedquilt",
    "spielcenter.cli.speedquilt_deal",
    "spielcenter.cli.speedquilt_tournament",
    "spielcenter.cli.speedquilt_verify",
    "spielcenter.cli.speedquilt_review",
]

_SPEEDQUILT = [name for name in COMMAND_MODULES if name.startswith("spielcenter.cli.speedquilt")]

COMMANDS: dict[str, list[str]] = {
    "solve": ["spielcenter.cli.solve"],
    "winrate": ["spielcenter.cli.solve"],
    "winnable": ["spielcenter.cli.winnable"],
    "deal": ["spielcenter.cli.patience"],
    "replay": ["spielcenter.cli.patience"],
    "play": ["spielcenter.cli.patience"],
    "serve": ["spielcenter.cli.serve"],
    "speedquilt": _SPEEDQUILT,
}
"""Which modules register each command (a test holds it to what the modules register)."""

EXIT_BAD_INPUT = 2


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser: with ``command``, only the modules that register it; else all."""
    parser = argparse.ArgumentParser(
        prog="spielcenter", description="Spielcenter: patience and quilt games."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS.get(command or "", COMMAND_MODULES):
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    words = list(sys.argv[1:] if argv is None else argv)
    command = words[0] if words and words[0] in COMMANDS else None
    args = build_parser(command).parse_args(words)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
