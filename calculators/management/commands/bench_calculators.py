"""Time the htmx fragment of every calculator in-process, as a slider update renders it.

    python manage.py bench_calculators [--runs 300]

Runs the full Django stack (URL routing, form, compute, template, orjson) through
the test client with ``HX-Request: true`` and reports the median and p95 per
calculator and the bytes of one update. No network: the numbers are the server's
own cost, the floor under any slider update.
"""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand
from django.test import Client

from calculators.engine import registry
from calculators.engine.spec import Calculator


def slider_sweep(calculator: Calculator, runs: int) -> tuple[str, list[float | int]]:
    """One input's values from one end of its slider to the other, as a drag sends them.

    Every value differs, so no layer can serve a cached result; values that break
    a cross-field rule at the other inputs' defaults are left out.
    """
    p = next(p for p in calculator.params if not p.choices)
    values = [p.slider_low + (p.slider_high - p.slider_low) * i / runs for i in range(runs)]
    if p.integer:
        values = [round(v) for v in values]
    return p.name, [v for v in values if not calculator.rules({**calculator.defaults, p.name: v})]


class Command(BaseCommand):
    help = "Median and p95 time to render each calculator's htmx fragment, in-process."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=300, help="renders per calculator (default 300)")

    def handle(self, *args, runs: int, **options):
        client = Client(HTTP_HX_REQUEST="true")
        self.stdout.write(f"{'calculator':<22} {'median ms':>10} {'p95 ms':>8} {'bytes':>7}")
        medians = []
        for calculator in registry.all_calculators():
            url = f"/calculators/{calculator.slug}/"
            name, values = slider_sweep(calculator, runs)
            for value in values[:20]:  # warm up
                client.get(url, {name: value}, secure=True)
            timings = []
            size = 0
            for value in values:
                start = time.perf_counter()
                response = client.get(url, {name: value}, secure=True)  # as over https in production
                timings.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    raise SystemExit(f"{calculator.slug} answered {response.status_code} for {name}={value}")
                size = max(size, len(response.content))
            timings.sort()
            median = statistics.median(timings)
            p95 = timings[int(0.95 * (len(timings) - 1))]
            medians.append(median)
            self.stdout.write(f"{calculator.slug:<22} {median:>10.2f} {p95:>8.2f} {size:>7}")
        self.stdout.write(f"{'median of medians':<22} {statistics.median(medians):>10.2f}")
