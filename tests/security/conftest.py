"""The attack tests (issue 37, docs/security.md) use the server suite's fixtures: an app on a
fresh database of each kind (SQLite and PostgreSQL), clients, a clock moved by hand, tables whose
computers do not pause."""

from __future__ import annotations

from ..server.conftest import (
    app,
    client,
    clock,
    database_url,
    make_app,
    make_client,
    settings,
)
from ..server.tables_helpers import devices, make_table_app

__all__ = [
    "app",
    "client",
    "clock",
    "database_url",
    "devices",
    "make_app",
    "make_client",
    "make_table_app",
    "settings",
]
