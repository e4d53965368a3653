"""The settings class and the ``spielcenter serve`` command."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from spielcenter.cli import build_parser
from spielcenter.server.app import create_app
from spielcenter.server.tables import TEMPO_SECONDS
from spielcenter.settings import ConfigurationError, Settings


def test_the_database_defaults_to_a_sqlite_file_in_the_data_dir(tmp_path: Path) -> None:
    settings = Settings(DATA_DIR=tmp_path)
    assert settings.database_url == f"sqlite+aiosqlite:///{tmp_path / 'spielcenter.sqlite3'}"


def test_settings_come_from_spielcenter_environment_variables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SPIELCENTER_DATABASE_URL", "postgresql+asyncpg://db/spielcenter")
    monkeypatch.setenv("SPIELCENTER_DAY_TIMEZONE", "UTC")
    settings = Settings()
    assert settings.database_url == "postgresql+asyncpg://db/spielcenter"
    assert settings.DAY_TIMEZONE == "UTC"


def test_outside_development_a_missing_secret_key_stops_the_start() -> None:
    with pytest.raises(ConfigurationError, match="SPIELCENTER_SECRET_KEY"):
        create_app(Settings(ENV="production", SECRET_KEY=None))


def test_outside_development_a_given_secret_key_is_used() -> None:
    assert Settings(ENV="production", SECRET_KEY="s3cret").secret_key == "s3cret"


@pytest.mark.parametrize("scale", [1, 0.5, 0])
def test_the_computer_pause_scale_shortens_the_pause_of_every_tempo(
    tmp_path: Path, scale: float
) -> None:
    """``COMPUTER_PAUSE_SCALE`` (for tests and demonstrations, docs/tables.md): the computers'
    pause before each move is the tempo's times the scale; 0 moves at once."""
    with TestClient(create_app(Settings(DATA_DIR=tmp_path, COMPUTER_PAUSE_SCALE=scale))) as client:
        delays = client.app.state.tables.delays  # type: ignore[attr-defined]
    assert delays == {tempo: pause * scale for tempo, pause in TEMPO_SECONDS.items()}
    assert delays["slow"] == pytest.approx(1.2 * scale)


def test_the_computer_pause_scale_never_lengthens_a_pause() -> None:
    with pytest.raises(ValidationError):
        Settings(COMPUTER_PAUSE_SCALE=2)


def test_serve_takes_host_port_and_data_dir() -> None:
    args = build_parser().parse_args(
        ["serve", "--host", "0.0.0.0", "--port", "9000", "--data-dir", "/tmp/x"]
    )
    assert (args.host, args.port, args.data_dir) == ("0.0.0.0", 9000, Path("/tmp/x"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


START_TIMEOUT_S = 120.0
"""A cold start imports the server and migrates a new database: slow on a busy machine."""


def _health_once_up(server: subprocess.Popen[bytes], url: str) -> httpx.Response | None:
    """``GET /health`` as soon as the starting server answers; ``None`` if it exits first or
    answers nothing within ``START_TIMEOUT_S``. One client for all the polls: each
    ``httpx.get`` builds a client with its TLS context, CPU taken from the starting server."""
    deadline = time.monotonic() + START_TIMEOUT_S
    with httpx.Client(timeout=1) as client:
        while time.monotonic() < deadline and server.poll() is None:
            try:
                return client.get(url)
            except httpx.TransportError:
                time.sleep(0.1)
    return None


def test_serve_starts_a_migrated_server_and_stops_on_sigterm(tmp_path: Path) -> None:
    port = free_port()
    command = ["serve", "--port", str(port), "--data-dir", str(tmp_path)]
    server = subprocess.Popen(
        [sys.executable, "-m", "spielcenter", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        health = _health_once_up(server, f"http://127.0.0.1:{port}/health")
        assert health is not None and health.json() == {"status": "ok"}
        assert (tmp_path / "spielcenter.sqlite3").is_file()
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=15)
    # uvicorn shuts down gracefully, then re-raises the signal: the exit says SIGTERM.
    assert server.returncode in (0, -signal.SIGTERM)
    assert b"Application shutdown complete" in output and b"stopped" in output
