"""The import contract of src/spielcenter: who may import whom (docs/architecture.md).

Read this before adding a module. The packages form layers, and imports point downwards only:

    cli, __main__                 the command line (starts the server, plays in the terminal)
    server                        HTTP routes, the WebSocket protocol, table actors, the hub
    services | web                use cases (load → check → apply → persist); the browser client
                                  and its message catalogues (i18n), which the server serves
    store | bots | solvers        SQLAlchemy models, repositories, migrations; computer players;
                                  patience solvers (with native, their compiled form)
    games | settings              pure rule engines; the one settings class

A package may import the packages of any layer below its own, never one above, and never a
sibling on its own layer (``services`` and ``web`` know nothing of each other; neither do ``store``,
``bots`` and ``solvers``). Inside a package anything goes, except circles: no two modules of
src/spielcenter may import each other, directly or round a longer loop. Every import counts — at
the top of a module, inside a function (a lazy import hides a circle, it does not remove it) and
under ``TYPE_CHECKING`` (the two modules still need each other to be read).

The graph is grimp's (the library behind import-linter), built from the source without running it.
"""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable, Mapping
from pathlib import Path

import grimp
import pytest

PACKAGE = "spielcenter"
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"cli"}),
    frozenset({"server"}),
    frozenset({"services", "web"}),
    frozenset({"store", "bots", "solvers"}),
    frozenset({"games", "settings"}),
)
"""Top to bottom; each name is a subpackage or module of ``spielcenter``."""
PART_OF = {"__main__": "cli", "native": "solvers", "": "games"}
"""Modules that belong to another name's place: ``__main__`` starts the command line, ``native``
loads the compiled solvers, and the package's own ``__init__`` (only its version) sits at the
bottom, importable by all."""

Edges = Mapping[str, Iterable[str]]
"""An import graph: each module and the modules it imports."""


def import_graph(package: str = PACKAGE) -> dict[str, set[str]]:
    """Every module of ``package`` and the modules of ``package`` it imports."""
    graph = grimp.build_graph(package, include_external_packages=False, cache_dir=None)
    edges = {
        module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules
    }
    root = Path(importlib.util.find_spec(package).origin).parent  # type: ignore[arg-type, union-attr]
    for module, imported in edges.items():
        path = root.joinpath(*module.split(".")[1:])
        source = (
            path.with_suffix(".py") if path.with_suffix(".py").is_file() else path / "__init__.py"
        )
        imported |= named_imports(source.read_text(encoding="utf-8"), package) & set(edges)
    return edges


def named_imports(source: str, package: str = PACKAGE) -> set[str]:
    """The modules of ``package`` that ``source`` imports by ``importlib.import_module("…")``
    with the name written out: grimp does not see them, and they count all the same."""
    return {
        str(node.args[0].value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and str(node.args[0].value).startswith(f"{package}.")
    }


def circles(edges: Edges) -> set[frozenset[str]]:
    """The import circles: every set of two or more modules that reach each other (the strongly
    connected components of the graph, by Tarjan's algorithm, without recursion)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()
    for root in edges:
        if root in order:
            continue
        work = [(root, iter(edges.get(root, ())))]
        order[root] = low[root] = len(order)
        stack.append(root)
        while work:
            module, imported = work[-1]
            target = next(imported, None)
            if target is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[module])
                if low[module] == order[module]:
                    found.add(_pop_component(stack, module))
            elif target not in order:
                order[target] = low[target] = len(order)
                stack.append(target)
                work.append((target, iter(edges.get(target, ()))))
            elif target in stack:
                low[module] = min(low[module], order[target])
    return {component for component in found if len(component) > 1}


def _pop_component(stack: list[str], root: str) -> frozenset[str]:
    component = []
    while True:
        module = stack.pop()
        component.append(module)
        if module == root:
            return frozenset(component)


def place(module: str) -> str:
    """The layer name of ``module``: its subpackage of ``spielcenter`` (``PART_OF`` applied)."""
    parts = module.split(".")
    name = parts[1] if len(parts) > 1 else ""
    return PART_OF.get(name, name)


def rank(name: str) -> int:
    """The depth of a layer name (0 is the top); a name in no layer is an error to fix here."""
    for depth, layer in enumerate(LAYERS):
        if name in layer:
            return depth
    raise AssertionError(f"spielcenter.{name} has no place in LAYERS: give it one")


def upward_imports(edges: Edges) -> list[tuple[str, str]]:
    """Imports that break the layers: to a layer above, or to a sibling on the same layer."""
    broken = []
    for importer, imported in edges.items():
        for target in imported:
            here, there = place(importer), place(target)
            if here != there and rank(here) >= rank(there):
                broken.append((importer, target))
    return sorted(broken)


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph()


def test_every_import_points_down_the_layers(graph: dict[str, set[str]]) -> None:
    assert upward_imports(graph) == []


def test_no_two_modules_import_each_other(graph: dict[str, set[str]]) -> None:
    # Issue 39 removed the last four (services, server, the Speedquilt rules and views, the
    # Crazy Quilt solvers); a new one is broken, not listed (docs/architecture.md).
    assert circles(graph) == set()


def test_the_graph_holds_every_layer(graph: dict[str, set[str]]) -> None:
    # The contract means nothing over an empty or partial graph.
    assert {place(module) for module in graph} == set().union(*LAYERS)


SERVICES_MAY_IMPORT = ("sqlalchemy.ext.asyncio", "sqlalchemy.exc")
"""What a service may take from SQLAlchemy: the session it hands to repositories, and the errors
it turns into its own. Queries (``select``, ``update``, ``text`` …) live in the store."""
QUERY_CALLS = frozenset({"execute", "scalar", "scalars", "stream", "text", "lock_rows"})
"""Calls that run SQL of the caller's own making (``lock_rows`` locks through a query too)."""


def sql_outside_the_store(source: str) -> list[str]:
    """What in a service module's ``source`` writes or runs SQL itself instead of asking a
    repository of ``store/repositories.py``: an import of SQLAlchemy beyond the session and
    its errors, or a call of :data:`QUERY_CALLS`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sqlalchemy"):
            if node.module not in SERVICES_MAY_IMPORT:
                found.append(f"line {node.lineno}: from {node.module} import …")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {alias.name}"
                for alias in node.names
                if alias.name.startswith("sqlalchemy") and alias.name not in SERVICES_MAY_IMPORT
            ]
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", ""))
            if name in QUERY_CALLS:
                found.append(f"line {node.lineno}: {name}(…)")
    return found


def test_services_reach_the_store_only_through_repositories() -> None:
    # The store's queries are in store/repositories.py, where the next reader looks for them
    # (docs/architecture.md, "use case"); a service holds the session and the transaction.
    root = Path(importlib.util.find_spec(PACKAGE).origin).parent / "services"  # type: ignore[arg-type, union-attr]
    modules = sorted(root.glob("*.py"))
    assert len(modules) > 10  # the check means nothing over an empty folder
    found = {
        module.name: sql
        for module in modules
        if (sql := sql_outside_the_store(module.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_sql_written_in_a_service_is_found() -> None:
    made_up = (
        "from sqlalchemy import select, text\n"
        "from sqlalchemy.ext.asyncio import AsyncSession\n"
        "import sqlalchemy.orm\n"
        "async def count(db: AsyncSession) -> int:\n"
        "    return await db.scalar(text('select count(*) from games'))\n"
    )
    assert sql_outside_the_store(made_up) == [
        "line 1: from sqlalchemy import …",
        "line 3: import sqlalchemy.orm",
        "line 5: scalar(…)",
        "line 5: text(…)",
    ]
    repository_use = (
        "async def count(games: GameRepository) -> int:\n    return await games.count()\n"
    )
    assert sql_outside_the_store(repository_use) == []


# -- the checks themselves, on made-up graphs ---------------------------------------------------


def test_a_made_up_circle_is_found() -> None:
    made_up = {
        "spielcenter.games.a": {"spielcenter.games.b"},
        "spielcenter.games.b": {"spielcenter.games.c"},
        "spielcenter.games.c": {"spielcenter.games.a", "spielcenter.games.d"},
        "spielcenter.games.d": set(),
        "spielcenter.games.e": {"spielcenter.games.e"},  # a module importing itself is no circle
    }
    found = circles(made_up)
    assert found == {
        frozenset({"spielcenter.games.a", "spielcenter.games.b", "spielcenter.games.c"})
    }
    assert circles({"spielcenter.games.a": {"spielcenter.games.b"}}) == set()


def test_a_made_up_upward_import_is_found() -> None:
    made_up = {
        "spielcenter.games.cruel": {"spielcenter.services.games"},  # a rule reaching up
        "spielcenter.services.games": {"spielcenter.games.cruel", "spielcenter.store.models"},
        "spielcenter.bots.easy": {"spielcenter.solvers.cruel"},  # siblings on one layer
        "spielcenter.solvers.cruel": {"spielcenter.native"},  # native is part of the solvers
        "spielcenter.server.app": {"spielcenter.web.i18n", "spielcenter"},
    }
    assert upward_imports(made_up) == [
        ("spielcenter.bots.easy", "spielcenter.solvers.cruel"),
        ("spielcenter.games.cruel", "spielcenter.services.games"),
    ]


def test_a_package_without_a_layer_is_refused() -> None:
    with pytest.raises(AssertionError, match=r"spielcenter\.plugins has no place"):
        upward_imports({"spielcenter.plugins.x": {"spielcenter.games.cruel"}})


def test_lazy_imports_and_imports_by_name_are_in_the_graph(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A made-up package whose circle is hidden in a function and behind importlib.
    package = tmp_path / "madeup"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "rules.py").write_text("def later():\n    from madeup import screen\n")
    (package / "screen.py").write_text(
        "import importlib\n\ndef later():\n    importlib.import_module('madeup.rules')\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    made_up = import_graph("madeup")
    assert made_up["madeup.rules"] == {"madeup.screen"}
    assert made_up["madeup.screen"] == {"madeup.rules"}
    assert circles(made_up) == {frozenset({"madeup.rules", "madeup.screen"})}
