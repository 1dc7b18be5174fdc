"""The production server as `make serve` runs it: gunicorn, DEBUG off, hashed and compressed
static files, then 64 concurrent clients on mixed pages for a few seconds with zero errors.

Loopback only, bounded in time. The environment is read from the Makefile's
`serve: export` lines, so this tests what `make serve` actually sets.
"""

import os
import re
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from calculators.engine import registry
from calculators.management.commands.bench import AssetLinks, fetch, hammer, text_of

ROOT = Path(__file__).resolve().parents[2]


def serve_environment() -> dict[str, str]:
    exports = re.findall(r"^serve: export (\w+) := (.*)$", (ROOT / "Makefile").read_text(), re.M)
    return {name: value.strip() for name, value in exports if name != "PORT"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    base = tmp_path_factory.mktemp("serve")
    port = free_port()
    # Its own SQLite file: this is about serving, and must not write to a DATABASE_URL's database.
    env = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_") and k != "DATABASE_URL"}
    env.update(serve_environment())
    env.update(
        DJANGO_SETTINGS_MODULE="prepsite.settings",
        STATIC_ROOT=str(base / "static"),
        SQLITE_PATH=str(base / "db.sqlite3"),
        SECRET_KEY=secrets.token_urlsafe(50),
        PORT=str(port),
    )
    for step in (["collectstatic", "--noinput", "--verbosity", "0"], ["migrate", "--noinput"], ["load_content"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *step], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )  # the steps of `make serve`
        assert done.returncode == 0, done.stdout + done.stderr
    log = open(base / "gunicorn.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("gunicorn")), "--config", "gunicorn.conf.py"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if fetch(port, "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            assert process.poll() is None, (base / "gunicorn.log").read_text()
            assert time.monotonic() < deadline, "gunicorn did not answer /healthz within 30 s"
            time.sleep(0.2)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def assets(port: int, path: str = "/calculators/kv-capacity/") -> list[str]:
    links = AssetLinks()
    links.feed(text_of(fetch(port, path)[1]))
    return links.urls


def test_the_page_is_served_with_debug_off_and_hashed_asset_names(server):
    status, body, _ = fetch(server, "/calculators/no-such-calculator/")
    assert status == 404
    assert b"Traceback" not in body and b"URLconf" not in body  # not Django's debug page
    urls = assets(server)
    names = sorted(re.sub(r"\.[0-9a-f]{12}\.", ".", url) for url in urls)
    assert names == sorted(["/static/favicon.svg", "/static/css/site.css", "/static/css/print.css",
                            "/static/vendor/htmx-4.0.1.min.js", "/static/vendor/plotly-basic-4.1.1.min.js",
                            "/static/js/calculator.js", "/static/js/copy-link.js"])  # fmt: skip
    assert all(re.search(r"\.[0-9a-f]{12}\.(js|css|svg)$", url) for url in urls), urls


def test_pages_travel_gzipped_and_slider_updates_plain(server):
    page_status, page, page_bytes = fetch(server, "/calculators/kv-capacity/")
    assert page_status == 200 and page[:2] == b"\x1f\x8b"
    assert "<h1>" in text_of(page) and page_bytes < 8_000
    update = fetch(server, "/calculators/kv-capacity/?layers=41", {"HX-Request": "true"})
    assert update[0] == 200
    assert b'<dl class="headlines">' in update[1][:200]  # plain HTML, not gzip


@pytest.mark.parametrize(("encoding", "expected"), [("br", "br"), ("gzip", "gzip"), ("br, gzip", "br")])
def test_static_files_are_compressed_and_cached_for_ever(server, encoding, expected):
    plotly = next(url for url in assets(server) if "plotly" in url)
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", server, timeout=10)
    connection.request("GET", plotly, headers={"Accept-Encoding": encoding})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    assert response.status == 200
    assert response.getheader("Content-Encoding") == expected
    assert response.getheader("Cache-Control") == "max-age=315360000, public, immutable"
    assert len(body) < 420_000  # the 1.19 MB bundle, compressed


def test_64_concurrent_clients_on_mixed_pages_get_no_errors(server):
    fragment = {"HX-Request": "true", "Accept-Encoding": "br, gzip"}
    requests = [("/healthz", {}), ("/calculators/", {}), ("/api/calculators/", {})]
    requests += [(url, {}) for url in ("/", "/questions/request-lifecycle/", "/glossary/kv-cache/", "/search/?q=kv")]
    for i, calculator in enumerate(registry.all_calculators()):
        name = calculator.params[0].name
        value = calculator.defaults[name]
        requests += [
            (f"/calculators/{calculator.slug}/", {}),
            (f"/calculators/{calculator.slug}/?{name}={value}", fragment),
            (f"/api/calculators/{calculator.slug}/?{name}={value}", {}),
        ]
        if i < 2:
            requests += [(url, {"Accept-Encoding": "br"}) for url in assets(server)]
    seconds = 3.0
    started = time.perf_counter()
    ok, failures = hammer(server, requests, seconds=seconds, threads=64)
    elapsed = time.perf_counter() - started
    print(
        f"\n64 clients, {elapsed:.1f} s: {ok} requests answered 200, {ok / elapsed:.0f} req/s, {len(failures)} errors"
    )
    assert failures == []
    assert ok >= 64 * 3  # every client got several answers
    assert elapsed < seconds + 10  # bounded: the clients stop by themselves
