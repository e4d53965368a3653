"""The client's files are named by their content, kept by the browser and sent compressed
(issue 40, "First page"; server/static.py, web/assets.py)."""

from __future__ import annotations

import gzip
import re

import pytest
from fastapi.testclient import TestClient

from spielcenter.server.static import IMMUTABLE, REVALIDATE
from spielcenter.web.assets import HASHED_NAME, load_assets
from spielcenter.web.i18n import LANGUAGES

PLAIN = {"Accept-Encoding": "identity"}
GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def _named_files(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_the_start_page_names_every_file_by_its_content(client: TestClient) -> None:
    page = client.get("/", headers=PLAIN)
    assert page.headers["cache-control"] == REVALIDATE  # the page itself is asked again
    named = _named_files(page.text)
    assert any(url.endswith(".js") for url in named) and any(url.endswith(".css") for url in named)
    for url in named:
        assert HASHED_NAME.match(url), f"{url} has no content hash in its name"


def test_a_hashed_address_is_kept_for_a_year_without_asking_again(client: TestClient) -> None:
    for url in _named_files(client.get("/").text):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == IMMUTABLE


def test_the_plain_address_still_works_and_is_revalidated(client: TestClient) -> None:
    answer = client.get("/static/js/main.js", headers=PLAIN)
    assert answer.status_code == 200 and answer.headers["cache-control"] == REVALIDATE
    assert answer.content == client.get(load_assets().url("js/main.js"), headers=PLAIN).content
    again = client.get(
        "/static/js/main.js", headers={**PLAIN, "If-None-Match": answer.headers["etag"]}
    )
    assert again.status_code == 304 and again.content == b""


def test_a_changed_file_has_another_etag_so_the_browser_fetches_it_again(
    client: TestClient,
) -> None:
    answer = client.get("/static/app.css", headers={**PLAIN, "If-None-Match": '"0123456789"'})
    assert answer.status_code == 200 and answer.content


def test_an_outdated_hash_leads_to_the_file_as_it_is_now(client: TestClient) -> None:
    """A page opened before the server was updated asks for a hash that is gone."""
    answer = client.get("/static/js/game.0123456789.js", follow_redirects=False)
    assert answer.status_code == 302
    assert answer.headers["location"] == load_assets().url("js/game.js")
    assert answer.headers["cache-control"] == REVALIDATE


def test_an_unknown_file_is_not_found_even_behind_a_hash(client: TestClient) -> None:
    assert client.get("/static/js/nothing.js").status_code == 404
    assert client.get("/static/js/nothing.0123456789.js").status_code == 404
    assert client.get("/static/../pyproject.toml").status_code == 404


def test_a_file_goes_gzipped_to_a_browser_that_takes_gzip(client: TestClient) -> None:
    url = load_assets().url("js/game.js")
    zipped = client.get(url, headers=GZIP)
    plain = client.get(url, headers=PLAIN)
    assert zipped.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    assert zipped.headers["vary"] == "Accept-Encoding"
    # httpx unpacks gzip: the same file either way, fewer bytes over the wire.
    assert zipped.content == plain.content
    assert int(zipped.headers["content-length"]) < int(plain.headers["content-length"]) / 2


@pytest.mark.parametrize("header", ["identity", "gzip;q=0", "br"])
def test_a_browser_that_refuses_gzip_gets_the_file_as_it_is(
    client: TestClient, header: str
) -> None:
    answer = client.get(load_assets().url("app.css"), headers={"Accept-Encoding": header})
    assert "content-encoding" not in answer.headers
    assert answer.content == load_assets().get("app.css").body  # type: ignore[union-attr]


def test_json_answers_are_gzipped(client: TestClient) -> None:
    answer = client.get("/api/i18n/en", headers=GZIP)
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.json()["action.undo"]
    assert client.get("/api/i18n/en", headers=PLAIN).json() == answer.json()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalogue_the_client_fetches_is_kept_for_a_year_and_sent_gzipped(
    client: TestClient, lang: str
) -> None:
    """The client reads its messages from a static file named by content (js/i18n.js names it),
    the same messages as ``/api/i18n/{lang}``."""
    url = load_assets().url(f"i18n/{lang}.json")
    assert url in client.get(load_assets().url("js/i18n.js")).text
    answer = client.get(url, headers=GZIP)
    assert answer.headers["cache-control"] == IMMUTABLE
    assert answer.headers["content-encoding"] == "gzip"
    assert answer.headers["content-type"].startswith("application/json")
    assert answer.json() == client.get(f"/api/i18n/{lang}").json()


def test_a_gzipped_file_is_the_served_file(client: TestClient) -> None:
    """What the server gzipped at start is byte for byte what it sends plain."""
    for asset in load_assets():
        if asset.gzipped is not None:
            assert gzip.decompress(asset.gzipped) == asset.body, asset.path
