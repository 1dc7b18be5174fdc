"""latency-budget: where a model-call budget goes, and how to make it fit."""

from __future__ import annotations

from .. import figures as fig
from ..spec import Calculator, Explanation, Headline, Param
from ..units import integer, ms, num, percent

PARAMS = (
    Param(
        "budget_ms",
        "Latency budget",
        "ms",
        50,
        1,
        100_000,
        step=1,
        log=True,
        slider_min=5,
        slider_max=5000,
        help="End to end, as the caller measures it.",
    ),
    Param(
        "network_ms",
        "Network",
        "ms",
        5,
        0,
        100_000,
        step=0.1,
        log=True,
        slider_min=0.1,
        slider_max=1000,
        help="Round trip between the caller and the service, including serialisation.",
    ),
    Param(
        "feature_fetches",
        "Feature fetches",
        "fetches",
        3,
        0,
        1000,
        integer=True,
        slider_max=50,
        help="Separate lookups (feature store, database, another service) before the model can run.",
    ),
    Param("fetch_ms", "Time per fetch", "ms", 12, 0, 100_000, step=0.1, log=True, slider_min=0.1, slider_max=1000),
    Param(
        "parallel",
        "How the fetches run",
        "mode",
        0,
        0,
        1,
        choices=((0, "one after another"), (1, "all at once")),
        help="All at once, the fetches cost as much as one of them.",
    ),
    Param(
        "cache_hit_rate",
        "Fetch cache hit rate",
        "fraction",
        0,
        0,
        1,
        step=0.01,
        help="Share of fetches answered by a local cache instead of the remote store.",
    ),
    Param("cache_ms", "Time per cache hit", "ms", 1, 0, 100_000, step=0.1, log=True, slider_min=0.01, slider_max=100),
    Param("model_ms", "Model inference", "ms", 15, 0, 100_000, step=0.1, log=True, slider_min=0.1, slider_max=10_000),
)


def per_fetch(v, hit_rate: float | None = None) -> float:
    h = v["cache_hit_rate"] if hit_rate is None else hit_rate
    return h * v["cache_ms"] + (1 - h) * v["fetch_ms"]


def fetch_total(v, parallel: int | None = None, hit_rate: float | None = None) -> float:
    if v["feature_fetches"] == 0:
        return 0.0
    each = per_fetch(v, hit_rate)
    at_once = v["parallel"] if parallel is None else parallel
    return each if at_once else v["feature_fetches"] * each


def compute(v) -> dict:
    each = per_fetch(v)
    fetches = fetch_total(v)
    total = v["network_ms"] + fetches + v["model_ms"]
    timeout = v["budget_ms"] - v["network_ms"] - fetches
    return {
        "per_fetch_ms": each,
        "fetch_total_ms": fetches,
        "total_ms": total,
        "headroom_ms": v["budget_ms"] - total,
        "fits": total <= v["budget_ms"],
        "model_timeout_ms": timeout,
        # A timeout of zero or less means the model cannot be called inside the budget at all.
        "model_has_time": timeout > 0,
        "fetch_share": fetches / total if total > 0 else 0.0,
        "parallel_total_ms": v["network_ms"] + fetch_total(v, parallel=1) + v["model_ms"],
        "parallel_cached_total_ms": v["network_ms"] + fetch_total(v, parallel=1, hit_rate=1) + v["model_ms"],
    }


def _fetches(n: int) -> str:
    return f"{integer(n)} feature fetch{'' if n == 1 else 'es'}"


def explain(v, o) -> Explanation:
    n, budget = v["feature_fetches"], v["budget_ms"]
    each, fetches, model = o["per_fetch_ms"], o["fetch_total_ms"], v["model_ms"]
    steps = []

    # 1. The parts, before any fixing.
    parts_named = f"{_fetches(n)}" if n else "no feature fetches (the request goes straight to the model)"
    steps.append(
        f"Break the {ms(budget)} budget into its parts before changing anything: the network round trip "
        f"({ms(v['network_ms'])}), {parts_named}, and the model call ({ms(model)})."
    )

    # 2. What one fetch costs.
    h = v["cache_hit_rate"]
    if n > 0 and h == 1:
        steps.append(f"Every fetch is answered by the cache, so each costs {ms(each)}.")
    elif n > 0 and h > 0:
        miss = 1 - h
        steps.append(
            f"With {percent(h)} of fetches answered by the cache, an average fetch costs "
            f"{num(h)} × {ms(v['cache_ms'])} + {num(miss)} × {ms(v['fetch_ms'])} = {ms(each)}."
        )
    elif n > 0:
        steps.append(f"Nothing is cached, so every fetch goes to the store and costs {ms(each)}.")

    # 3. All the fetches, compared with the model.
    if n > 0:
        if n == 1:
            how = f"The single fetch takes {ms(fetches)}"
        elif v["parallel"]:
            how = f"Issued all at once, the {_fetches(n)} cost as much as one of them, {ms(fetches)}"
        else:
            how = f"One after another, the {_fetches(n)} take {integer(n)} × {ms(each)} = {ms(fetches)}"
        if fetches > model:
            compare = f"more than the model's {ms(model)}"
        elif fetches == model:
            compare = f"as long as the model's {ms(model)}"
        else:
            compare = f"less than the model's {ms(model)}"
        steps.append(f"{how}: {compare}.")

    # 4. The whole breakdown against the budget.
    parts = f"{ms(v['network_ms'])} network + {ms(fetches)} fetches + {ms(model)} model = {ms(o['total_ms'])}"
    if o["fits"]:
        verdict = f"it fits with {ms(o['headroom_ms'])} to spare" if o["headroom_ms"] > 0 else "it fits exactly"
    else:
        verdict = f"headroom {ms(o['headroom_ms'])}, so it does not fit"
    steps.append(f"Added up: {parts} against the {ms(budget)} budget; {verdict}.")

    # 5. What parallel fetches and a cache would buy.
    if n > 1 and not v["parallel"]:
        steps.append(
            f"Issue the fetches all at once and they cost only the slowest one, about {ms(each)}: "
            f"the total falls to {ms(o['parallel_total_ms'])}. With every fetch served by a "
            f"{ms(v['cache_ms'])} cache as well it would be {ms(o['parallel_cached_total_ms'])}."
        )
    elif n > 0 and v["cache_hit_rate"] < 1 and v["cache_ms"] < v["fetch_ms"]:
        # Here the fetches already cost one fetch's time (all at once, or only one).
        steps.append(
            f"A cache in front of the store turns a {ms(v['fetch_ms'])} fetch into a {ms(v['cache_ms'])} one: "
            f"with every fetch cached the total would be {ms(o['parallel_cached_total_ms'])}."
        )
    else:
        steps.append(
            f"The fetches are already as cheap as this setup makes them; what is left to cut is the "
            f"{ms(model)} model: a quantised or distilled version runs faster."
        )

    # 6. The timeout.
    timeout = o["model_timeout_ms"]
    if o["model_has_time"]:
        within = (
            f"the model's {ms(model)} fits inside it"
            if model <= timeout
            else f"the model needs {ms(model)}, so as things stand every call would time out"
        )
        steps.append(
            f"Time the model call out at what the budget leaves after network and fetches, not at the whole budget: "
            f"{ms(budget)} − {ms(v['network_ms'])} − {ms(fetches)} = {ms(timeout)}; {within}."
        )
    else:
        steps.append(
            f"Network and fetches alone take {ms(v['network_ms'] + fetches)} of the {ms(budget)}: "
            f"{ms(budget)} − {ms(v['network_ms'])} − {ms(fetches)} = {ms(timeout)} is left, so no model call "
            f"can finish in time until network and fetches shrink."
        )

    # 7. The degraded path.
    steps.append(
        "When the timeout fires, answer without the model: a cached earlier score, a popular default or a "
        "simple rule. The caller gets a slightly worse answer on time instead of a good one too late."
    )

    if o["fits"]:
        conclusion = f"{ms(o['total_ms'])} of a {ms(budget)} budget: it fits, with {ms(o['headroom_ms'])} left over."
    elif fetches > model and fetches >= v["network_ms"]:
        conclusion = (
            f"{ms(o['total_ms'])} against {ms(budget)}: the feature fetches ({ms(fetches)}), "
            f"not the {ms(model)} model, are what break the budget."
        )
    elif model >= v["network_ms"]:
        conclusion = (
            f"{ms(o['total_ms'])} against {ms(budget)}: the model ({ms(model)}) is the largest part, "
            f"so it must get faster: quantise or distil it."
        )
    else:
        conclusion = (
            f"{ms(o['total_ms'])} against {ms(budget)}: the network alone takes {ms(v['network_ms'])}; "
            f"serve closer to the caller."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    n = v["feature_fetches"]
    rows = [("your setting", o["fetch_total_ms"])]
    if n > 1 and not v["parallel"]:
        rows.append(("fetches all at once", fetch_total(v, parallel=1)))
    if n > 0 and (v["cache_hit_rate"] < 1 or (n > 1 and not v["parallel"])):
        rows.append(("all at once, all cached", fetch_total(v, parallel=1, hit_rate=1)))
    labels = [label for label, _ in rows]
    network = [v["network_ms"]] * len(rows)
    fetches = [f for _, f in rows]
    model = [v["model_ms"]] * len(rows)
    hover = "%{y}: %{x:,.3~g} ms"
    traces = [
        fig.bars(labels, network, "network", fig.GREY, hover=hover, orientation="h"),
        fig.bars(labels, fetches, "feature fetches", fig.ORANGE, hover=hover, orientation="h"),
        fig.bars(labels, model, "model", fig.BLUE, hover=hover, orientation="h"),
    ]
    budget = v["budget_ms"]
    shape, note = fig.vline(budget, f"budget {ms(budget)}", fig.VERMILION)
    widest = max(budget, *(v["network_ms"] + f + v["model_ms"] for f in fetches))
    return [
        fig.figure(
            "Where the latency budget goes",
            traces,
            fig.axis("milliseconds", range_=[0, widest * 1.1]),
            fig.axis("", type="category", autorange="reversed"),
            shapes=[shape],
            annotations=[note],
            barmode="stack",
        )
    ]


CALCULATOR = Calculator(
    slug="latency-budget",
    title="Latency budget: network, feature fetches and the model call",
    summary="Break a latency budget into network, feature fetches and model time, and see what parallel or cached "
    "fetches, a timeout and a degraded path do.",
    order=110,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("total_ms", "Total", ms),
        Headline("headroom_ms", "Headroom", ms),
        Headline("model_timeout_ms", "Model timeout", ms),
        Headline("fits", "Fits the budget", lambda fits: "yes" if fits else "no"),
    ),
)
