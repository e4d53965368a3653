"""The ``spielcenter`` command: one sub-command module per room.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its sub-commands
and sets ``func`` (taking the parsed arguments, returning the exit status) on each.
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
]

EXIT_BAD_INPUT = 2


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="spielcenter", description="Spielcenter: patience and quilt games."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser().parse_args(argv)
    status: int = args.func(args)
    return status


if __name__ == "__main__":
    sys.exit(main())
