"""``spielcenter speedquilt verify``: check that a finished game's dice and draws were fair.

* ``speedquilt verify FILE.json`` checks a replay saved from the browser or the API
  (``/api/my-tables/{id}/replay``, ``/api/my-games/{id}/replay``) — needs no server and no
  database: the file holds the revealed seed, the commitment shown at the start, and every view.
* ``speedquilt verify --table ID`` checks a finished table of the configured database
  (``SPIELCENTER_DATABASE_URL`` / ``SPIELCENTER_DATA_DIR``, or ``--database URL``) from every seat
  and for a spectator, and replays every entry of its log from the seed.

Either way: the seed must hash to the commitment (SHA-256 with the tag of docs/shuffle.md), and
every die and every block drawn that was shown must be what the seed gives. ``--json`` prints the
verdict for scripts. Exit status 0: fair; 1: not fair (each fault is named); 2: nothing to check
(a bad file, no such table, a practice game dealt from a deal number, a game not over yet).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from spielcenter.games.base import JSON
from spielcenter.games.seeds import fingerprint

from . import EXIT_BAD_INPUT
from .speedquilt import SUBCOMMANDS

EXIT_NOT_FAIR = 1


def register(subparsers: Any) -> None:
    """Add ``verify`` to the ``speedquilt`` group."""
    verify = SUBCOMMANDS["speedquilt"].add_parser(
        "verify", help="check a finished game's revealed seed against every die and draw"
    )
    verify.add_argument("file", nargs="?", type=Path, help="a replay saved as JSON")
    verify.add_argument("--table", help="the id of a finished table in the database")
    verify.add_argument("--database", help="database URL (default: the server's settings)")
    verify.add_argument("--json", action="store_true", help="print the verdict as JSON")
    verify.set_defaults(func=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """Check the file or the table; print the verdict."""
    from spielcenter.services.common import ServiceError

    if (args.file is None) == (args.table is None):
        return _refuse("name either a replay FILE or --table ID")
    try:
        verdict = _from_file(args.file) if args.file is not None else _from_table(args)
    except ServiceError as refusal:
        return _refuse(refusal.message)
    except (OSError, ValueError) as fault:
        return _refuse(str(fault))
    if args.json:
        print(json.dumps(verdict, indent=1))
    else:
        print(describe(verdict))
    return 0 if verdict["ok"] else EXIT_NOT_FAIR


def _refuse(message: str) -> int:
    print(f"spielcenter speedquilt verify: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _from_file(path: Path) -> JSON:
    from spielcenter.services.verify import verify_replay

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as fault:
        raise ValueError(f"{path} is not JSON: {fault}") from None
    return verify_replay(data)


def _from_table(args: argparse.Namespace) -> JSON:
    from spielcenter.services.verify import verify_stored_table
    from spielcenter.settings import Settings
    from spielcenter.store.db import make_engine, make_sessionmaker

    url = args.database or Settings().database_url

    async def check() -> JSON:
        engine = make_engine(url)
        try:
            return await verify_stored_table(make_sessionmaker(engine), args.table)
        finally:
            await engine.dispose()

    return asyncio.run(check())


def describe(verdict: JSON) -> str:
    """The verdict in a few lines for people."""
    shown = fingerprint(verdict["commitment"])
    if not verdict["ok"]:
        lines = [f"NOT FAIR: the game with commitment {shown}… does not check out:"]
        return "\n".join(lines + [f"  - {fault}" for fault in verdict["faults"]])
    where = "from every seat and for a spectator" if "readers" in verdict else "as shown"
    text = (
        f"Fair: the seed revealed at the end matches the commitment {shown}… shown at the start; "
        f"all {verdict['rolls']} rolls ({verdict['dice']} dice) and {verdict['draws']} draws "
        f"{where} follow from it"
    )
    if "entries" in verdict:
        text += f", and all {verdict['entries']} entries replay legally from the seed"
    text += "."
    if verdict["unchecked"]:
        text += (
            f"\n({verdict['unchecked']} draws came from blocks put back under a deck at the "
            "start, which only their owners saw: not checked.)"
        )
    return text
