"""The README's performance figures, from one run against a running `make serve`.

    make serve            # in one terminal
    make bench            # in another: python manage.py bench --port 8000

Prints, in one run:
  1. the in-process time to render each calculator's htmx fragment (bench_calculators);
  2. slider updates per second against /healthz requests per second, same threads,
     same length, back to back, and their ratio;
  3. bytes on the wire for a first visit to a calculator page with every asset it
     references, and for one slider update (Accept-Encoding: br, gzip, as a browser sends);
  4. in Debian's chromium, the median time from typing a value to the updated worked answer.

Only 127.0.0.1 is ever contacted. The load generator shares the machine's cores
with the server, so the rates are lower bounds; the ratio is the figure to read.
"""

from __future__ import annotations

import gzip
import http.client
import itertools
import os
import re
import shutil
import statistics
import threading
import time
from html.parser import HTMLParser

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from calculators.engine import registry

from .bench_calculators import slider_sweep

HOST = "127.0.0.1"
BROWSER_HEADERS = {"Accept-Encoding": "br, gzip", "User-Agent": "prepsite-bench"}


class AssetLinks(HTMLParser):
    """Every stylesheet, icon and script a page makes the browser fetch."""

    def __init__(self):
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("src"):
            self.urls.append(attrs["src"])
        elif tag == "link" and attrs.get("href") and attrs.get("rel") in {"stylesheet", "icon"}:
            self.urls.append(attrs["href"])


def fetch(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, bytes, int]:
    """One GET on a fresh connection: status, the body as sent (still compressed), bytes on the wire."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    try:
        connection.request("GET", path, headers={**BROWSER_HEADERS, **(headers or {})})
        response = connection.getresponse()
        body = response.read()  # http.client never decodes Content-Encoding: these are the sent bytes
        head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + len(str(response.msg).replace("\n", "\r\n"))
        return response.status, body, head + len(body)
    finally:
        connection.close()


def text_of(body: bytes) -> str:
    """A body as text, gunzipped if the server compressed it (pages are; htmx fragments are not)."""
    return (gzip.decompress(body) if body[:2] == b"\x1f\x8b" else body).decode()


def hammer(port: int, requests, seconds: float, threads: int) -> tuple[int, list[str]]:
    """`threads` keep-alive clients send the (path, headers) requests in turn for `seconds`.

    Returns the number of 200 answers and a description of every other outcome.
    Bounded in time, loopback only.
    """
    successes = [0]
    failures: list[str] = []
    lock = threading.Lock()
    source = itertools.cycle(requests)
    deadline = time.perf_counter() + seconds

    def client():
        ok = 0
        connection = http.client.HTTPConnection(HOST, port, timeout=10)
        while time.perf_counter() < deadline:
            with lock:
                path, headers = next(source)
            try:
                connection.request("GET", path, headers=headers)
                response = connection.getresponse()
                response.read()
                if response.status == 200:
                    ok += 1
                else:
                    with lock:
                        failures.append(f"{response.status} {path}")
            except (OSError, http.client.HTTPException) as error:
                with lock:
                    failures.append(f"{type(error).__name__}: {error} {path}")
                connection.close()
                connection = http.client.HTTPConnection(HOST, port, timeout=10)
        connection.close()
        with lock:
            successes[0] += ok

    workers = [threading.Thread(target=client) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return successes[0], failures


def update_paths(runs: int = 200) -> list[str]:
    """Slider updates across every calculator, each a different value."""
    paths = []
    for calculator in registry.all_calculators():
        name, values = slider_sweep(calculator, runs)
        paths.extend(f"/calculators/{calculator.slug}/?{name}={value}" for value in values)
    # Interleave the calculators, as many users on different pages would.
    per = len(paths) // len(registry.all_calculators())
    return [paths[i + j * per] for i in range(per) for j in range(len(registry.all_calculators()))]


def chromium_path() -> str | None:
    return shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)


TIME_EDIT = """
([id, value]) => new Promise((resolve) => {
  const box = document.getElementById(id);
  const steps = () => document.querySelector('#results .steps').textContent;
  const before = steps();
  let start = null;
  box.addEventListener('input', () => { start = performance.now(); }, {once: true});
  const observer = new MutationObserver(() => {
    if (start !== null && steps() !== before) {
      observer.disconnect();
      window.__edit = performance.now() - start;
    }
  });
  observer.observe(document.getElementById('results'), {childList: true, subtree: true, characterData: true});
  window.__edit = undefined;
  resolve();
})
"""


def type_to_answer_ms(port: int, edits: int) -> list[float]:
    """Type a new value into a number box `edits` times; milliseconds until the worked answer shows it."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    if path is None:
        raise CommandError("Debian's chromium is needed for the browser figure: apt-get install chromium")
    timings = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=path, args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        )
        page = browser.new_page()
        page.goto(f"http://{HOST}:{port}/calculators/kv-capacity/")
        page.wait_for_function("() => document.getElementById('chart-0').data !== undefined")
        for i in range(edits + 3):
            value = str(2048 + 256 * (i + 1))
            page.evaluate(TIME_EDIT, ["id_context_tokens", value])
            page.fill("#id_context_tokens", value)
            page.wait_for_function("() => window.__edit !== undefined", timeout=10_000)
            if i >= 3:  # the first edits warm the connection and the JIT
                timings.append(page.evaluate("() => window.__edit"))
            page.wait_for_timeout(150)  # one edit at a time, as a person types
        browser.close()
    return timings


class Command(BaseCommand):
    help = "Measure a running `make serve` on 127.0.0.1: render times, updates/s vs healthz/s, bytes, browser latency."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)))
        parser.add_argument("--runs", type=int, default=300, help="in-process renders per calculator")
        parser.add_argument("--seconds", type=float, default=5.0, help="seconds of each kind of HTTP load")
        parser.add_argument("--threads", type=int, default=8, help="concurrent keep-alive clients")
        parser.add_argument("--rounds", type=int, default=5, help="alternating healthz/update rounds")
        parser.add_argument("--edits", type=int, default=20, help="values typed in the browser")

    def handle(self, *args, port: int, runs: int, seconds: float, threads: int, rounds: int, edits: int, **options):
        try:
            status, body, _ = fetch(port, "/healthz")
        except OSError as error:
            raise CommandError(
                f"No server answers on {HOST}:{port} ({error}). Start one with `make serve` (PORT={port}) "
                "in another terminal, then run `make bench` again."
            ) from error
        if (status, body) != (200, b"ok"):
            raise CommandError(f"{HOST}:{port}/healthz answered {status} {body[:80]!r}: is it prepsite?")
        write = self.stdout.write
        write(f"prepsite bench against http://{HOST}:{port}/ on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}\n")

        write(f"1. In-process htmx fragment render, {runs} renders per calculator (ms)")
        call_command("bench_calculators", runs=runs, stdout=self.stdout)

        write(
            f"\n2. HTTP on loopback: {threads} keep-alive clients, {seconds:g} s of each kind in {rounds} alternating "
            f"rounds (so drift in the machine's speed hits both alike)"
        )
        fragment = {**BROWSER_HEADERS, "HX-Request": "true"}
        updates = [(p, fragment) for p in update_paths()]
        healthz_ok = updates_ok = 0
        healthz_failed, updates_failed, ratios = [], [], []
        for round_ in range(rounds):
            ok_h, failed = hammer(port, [("/healthz", BROWSER_HEADERS)], seconds / rounds, threads)
            healthz_ok, healthz_failed = healthz_ok + ok_h, healthz_failed + failed
            start = round_ * len(updates) // rounds  # each round carries on through new values
            ok_u, failed = hammer(port, updates[start:] + updates[:start], seconds / rounds, threads)
            updates_ok, updates_failed = updates_ok + ok_u, updates_failed + failed
            ratios.append(ok_u / ok_h if ok_h else 0.0)
        healthz_rate, updates_rate = healthz_ok / seconds, updates_ok / seconds
        write(f"{'/healthz requests/s':<28} {healthz_rate:>9.0f}   failed {len(healthz_failed)}")
        write(f"{'slider updates/s':<28} {updates_rate:>9.0f}   failed {len(updates_failed)}")
        write(f"{'ratio updates / healthz':<28} {updates_rate / healthz_rate:>9.2f}   (target >= 0.5)")
        write(f"{'  per round':<28} {' '.join(f'{r:.2f}' for r in ratios)}")

        write("\n3. Bytes on the wire (Accept-Encoding: br, gzip; headers included)")
        slug = "kv-capacity"
        status, page, page_bytes = fetch(port, f"/calculators/{slug}/")
        if status != 200:
            raise CommandError(f"/calculators/{slug}/ answered {status}")
        links = AssetLinks()
        links.feed(text_of(page))
        total = page_bytes
        write(f"  {f'/calculators/{slug}/':<58} {page_bytes:>9,}")
        for url in links.urls:
            status, _, size = fetch(port, url)
            if status != 200:
                raise CommandError(f"{url} answered {status}")
            total += size
            write(f"  {re.sub(r'^/static/', 'static/', url):<58} {size:>9,}")
        write(f"{'first visit, page and all assets':<60} {total:>9,}   (target <= 450,000)")
        _, _, update_bytes = fetch(port, f"/calculators/{slug}/?context_tokens=8192", {"HX-Request": "true"})
        write(f"{'one slider update':<60} {update_bytes:>9,}   (target <= 20,000)")

        write(f"\n4. Chromium: typing a value to the updated worked answer, {edits} edits")
        timings = type_to_answer_ms(port, edits)
        timings.sort()
        write(
            f"{'median ms':<28} {statistics.median(timings):>9.1f}   (target <= 100)\n"
            f"{'p95 ms':<28} {timings[int(0.95 * (len(timings) - 1))]:>9.1f}"
        )
