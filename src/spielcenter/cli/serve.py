"""``spielcenter serve``: the web server (uvicorn) with the database migrated at start."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(subparsers: Any) -> None:
    """Add the ``serve`` sub-command."""
    parser = subparsers.add_parser("serve", help="run the web server")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--data-dir", type=Path, default=None, help="folder of the SQLite database (./data)"
    )
    parser.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    """Run the server until interrupted; uvicorn shuts it down gracefully on SIGINT/SIGTERM."""
    import uvicorn

    from spielcenter.server.app import create_app
    from spielcenter.settings import ConfigurationError, Settings

    overrides = {} if args.data_dir is None else {"DATA_DIR": args.data_dir}
    try:
        app = create_app(Settings(**overrides))
    except ConfigurationError as exc:
        print(f"spielcenter serve: {exc}", file=sys.stderr)
        return 2
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="info",
        proxy_headers=False,
        timeout_graceful_shutdown=5,
    )
    return 0
