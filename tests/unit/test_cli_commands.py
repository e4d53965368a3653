"""The command line loads only what a command needs (issue 40: a patience deal in ≤ 150 ms)."""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys

from spielcenter.cli import COMMAND_MODULES, COMMANDS, build_parser


def registered_by(module: str) -> set[str]:
    """The top-level commands that one module adds to a fresh parser."""
    parser = argparse.ArgumentParser()
    subparsers = parser.add_subparsers()
    if module.startswith("spielcenter.cli.speedquilt_"):
        importlib.import_module("spielcenter.cli.speedquilt").register(subparsers)
        before = set(subparsers.choices)
        importlib.import_module(module).register(subparsers)
        return set(subparsers.choices) - before | {"speedquilt"}
    importlib.import_module(module).register(subparsers)
    return set(subparsers.choices)


def test_every_command_is_mapped_to_exactly_the_modules_that_register_it():
    for module in COMMAND_MODULES:
        for command in registered_by(module):
            assert module in COMMANDS[command], (command, module)
    for command, modules in COMMANDS.items():
        assert all(command in registered_by(module) for module in modules), command


def test_without_a_command_the_parser_knows_every_command():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert set(sub.choices) == set(COMMANDS)


def test_a_patience_deal_never_imports_the_speedquilt_bots_or_numpy():
    script = (
        "import sys\n"
        "from spielcenter.cli import main\n"
        "assert main(['deal', 'cruel', '--deal', '1', '--json']) == 0\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'tqdm')"
        " or m.startswith('spielcenter.bots')))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
