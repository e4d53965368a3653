"""The client's files named by their content (web/assets.py): a file's name changes exactly when
its content or that of a file it names changes, and every module import is renamed."""

from __future__ import annotations

import json
import re

import pytest

from spielcenter.server.static import accepts_gzip
from spielcenter.web.assets import (
    HASHED_NAME,
    AssetCycleError,
    build_assets,
    load_assets,
    unhashed,
)
from spielcenter.web.i18n import LANGUAGES, catalog

CLIENT = {
    "index.html": b'<link rel="stylesheet" href="/static/app.css">'
    b'<script type="module" src="/static/js/main.js"></script>',
    "app.css": b"body { margin: 0 }",
    "js/main.js": b'import { t } from "./i18n.js";\n'
    b'export const game = () => import("./game.js");\n',
    "js/i18n.js": b"export const t = (key) => key;\n",
    "js/game.js": b'import { t } from "./i18n.js";\nexport const rules = "/static/rules.css";\n',
    "rules.css": b"p { color: black }",
}


def _urls(files: dict[str, bytes]) -> dict[str, str]:
    return {asset.path: asset.url for asset in build_assets(files)}


def test_every_name_in_a_page_or_module_becomes_the_hashed_name() -> None:
    assets = build_assets(CLIENT)
    main = assets.get("js/main.js")
    assert main is not None
    text = main.body.decode()
    i18n, game = (assets.url(p).rpartition("/")[2] for p in ("js/i18n.js", "js/game.js"))
    assert f'from "./{i18n}"' in text and f'import("./{game}")' in text
    page = assets.get("index.html")
    assert page is not None
    assert assets.url("js/main.js") in page.body.decode()
    assert assets.url("app.css") in page.body.decode()
    game_text = assets.get("js/game.js").body.decode()  # type: ignore[union-attr]
    assert f'"{assets.url("rules.css")}"' in game_text


def test_a_changed_module_renames_itself_and_every_module_above_it_but_no_other() -> None:
    before = _urls(CLIENT)
    after = _urls({**CLIENT, "js/i18n.js": b"export const t = (key) => `${key}`;\n"})
    changed = {path for path in CLIENT if before[path] != after[path]}
    assert changed == {"js/i18n.js", "js/game.js", "js/main.js", "index.html"}


def test_the_same_files_get_the_same_names_in_every_process() -> None:
    assert _urls(CLIENT) == _urls(dict(CLIENT))


def test_files_that_name_each_other_are_refused_with_the_circle() -> None:
    circle = {"js/a.js": b'import "./b.js";', "js/b.js": b'import "./a.js";'}
    with pytest.raises(AssetCycleError, match=r"js/a\.js → js/b\.js → js/a\.js"):
        build_assets(circle)


def test_a_name_of_a_file_that_is_not_there_stays_as_it_is() -> None:
    assets = build_assets({"js/a.js": b'import "./gone.js"; fetch("/static/gone.json");'})
    assert assets.get("js/a.js").body == b'import "./gone.js"; fetch("/static/gone.json");'  # type: ignore[union-attr]


def test_a_hashed_name_gives_back_the_plain_name() -> None:
    assert unhashed("js/main.0123456789.js") == "js/main.js"
    assert unhashed("rules/cruel.de.0123456789.html") == "rules/cruel.de.html"
    assert unhashed("js/main.js") is None


def test_a_changed_message_renames_the_catalogue_and_the_module_that_fetches_it() -> None:
    """The catalogues are named by content like any file: the client's i18n module names them,
    so a changed message reaches a browser that kept the old catalogue."""
    catalogues = {
        **CLIENT,
        "js/i18n.js": b'const CATALOGUES = { en: "/static/i18n/en.json" };\n',
        "i18n/en.json": b'{"action.undo":"Undo"}',
    }
    before = _urls(catalogues)
    after = _urls({**catalogues, "i18n/en.json": b'{"action.undo":"Take back"}'})
    assert {path for path in before if before[path] != after[path]} == {
        "i18n/en.json",
        "js/i18n.js",
        "js/main.js",
        "js/game.js",
        "index.html",
    }
    changed = build_assets({**catalogues, "i18n/en.json": b'{"action.undo":"Take back"}'})
    assert after["i18n/en.json"].encode() in changed.get("js/i18n.js").body  # type: ignore[union-attr]


def test_the_client_fetches_each_catalogue_by_its_hashed_name_with_every_message() -> None:
    assets = load_assets()
    i18n = assets.get("js/i18n.js")
    assert i18n is not None
    for lang in LANGUAGES:
        catalogue = assets.get(f"i18n/{lang}.json")
        assert catalogue is not None and catalogue.gzipped is not None
        assert HASHED_NAME.match(catalogue.url) and catalogue.url.encode() in i18n.body
        assert json.loads(catalogue.body) == catalog(lang)


def test_every_module_of_the_client_imports_its_modules_by_their_hashed_names() -> None:
    """A module reached by its plain name would be a second copy of it (its own state: the
    language, the catalogue) beside the one reached by the hashed name."""
    for asset in load_assets():
        if not asset.path.endswith(".js"):
            continue
        text = asset.body.decode()
        for specifier in re.findall(r"""(?:from|import)\s*\(?\s*["'`]([^"'`\s]+\.js)["'`]""", text):
            assert HASHED_NAME.match(specifier.rpartition("/")[2]), (asset.path, specifier)


@pytest.mark.parametrize(
    ("header", "takes_gzip"),
    [
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8", True),
        ("*", True),
        ("gzip;q=0", False),
        ("identity", False),
        ("", False),
        ("*, gzip;q=0", False),
    ],
)
def test_gzip_goes_only_to_a_browser_that_takes_it(header: str, takes_gzip: bool) -> None:
    assert accepts_gzip(header) is takes_gzip
