# The two commands of the README: `make run` and `make test`. Both install what is missing first.
SHELL := /bin/bash
UV := $(shell command -v uv >/dev/null 2>&1 && echo uv || echo "python3 -m uv")
# Python keeps the bytecode it compiles (in __pycache__ folders, which git ignores) even where the
# machine's environment asks it not to (PYTHONDONTWRITEBYTECODE=1 on the machines this project is
# developed on; CI's may be alike): otherwise every test server, command and benchmark the tests
# start compiles SQLAlchemy, FastAPI and the Spielcenter from their sources again.
export PYTHONDONTWRITEBYTECODE :=
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test lint typecheck unit browser bench screenshots

install:
	@./scripts/bootstrap.sh

run: install
	$(UV) run spielcenter serve --host $(HOST) --port $(PORT)

lint: install
	$(UV) run ruff check src tests bench
	$(UV) run ruff format --check src tests bench

typecheck: install
	$(UV) run mypy

unit: install
	@./scripts/ensure-node.sh
	@./scripts/ensure-services.sh
	$(UV) run pytest -n 2 --dist worksteal -m "not browser"

browser: install
	@./scripts/ensure-chromium.sh
	$(UV) run pytest -m browser

# `--dist worksteal`: a worker that runs out of tests takes some of the other's queue, so one
# long test near the end of the collection no longer leaves a core idle (`load` hands out
# fixed batches).
#
# The solvers' compile (one gcc on one core, about a minute on a machine that never built these
# sources; a copy from ~/.cache/spielcenter on one that did) runs beside ruff and mypy (one core,
# about 20 s cold); the tests start once both are done.
test:
	@./scripts/bootstrap.sh --no-build
	@./scripts/ensure-chromium.sh
	@./scripts/ensure-node.sh
	@./scripts/ensure-services.sh
	$(UV) run --no-sync python -m spielcenter.native build --quiet & build=$$!; checks=0; \
	$(UV) run ruff check src tests bench && $(UV) run ruff format --check src tests bench \
	  && $(UV) run mypy || checks=$$?; \
	wait $$build && exit $$checks
	$(UV) run pytest -n 2 --dist worksteal -m "not browser"
	# The browser tests run on their own: Playwright's sync API keeps an event loop in its worker.
	$(UV) run pytest -n 2 --dist worksteal -m browser

# The README's screenshots: the browser tests write them into docs/screenshots only when asked.
screenshots: install
	@./scripts/ensure-chromium.sh
	SPIELCENTER_SCREENSHOTS=1 $(UV) run pytest -n 2 --dist worksteal -m browser

bench: install
	$(UV) run python bench/engines.py
