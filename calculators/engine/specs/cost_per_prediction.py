"""cost-per-prediction: what one prediction costs, and why a bill triples with flat traffic."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from ..spec import Calculator, Explanation, Headline, Param
from ..units import integer, money, num, percent, times

PARAMS = (
    Param(
        "hourly_cost",
        "Cost of a replica",
        "$ per hour",
        4.0,
        0,
        100_000,
        step=0.01,
        log=True,
        slider_min=0.1,
        slider_max=1000,
        help="All in: the machine, its accelerator, and anything else billed by the hour.",
    ),
    Param(
        "capacity_per_s",
        "Capacity at full load",
        "predictions/s",
        50,
        0.001,
        10_000_000,
        step=0.001,
        log=True,
        slider_min=0.1,
        slider_max=100_000,
        help="Model calls one replica serves per second when it is never idle.",
    ),
    Param(
        "utilization",
        "Utilisation",
        "fraction",
        0.3,
        0.001,
        1,
        step=0.01,
        slider_min=0.01,
        help="Share of that capacity real traffic uses, averaged over the hours you pay for.",
    ),
    Param("feature_reads", "Feature reads per call", "reads", 3, 0, 10_000, integer=True, slider_max=100),
    Param(
        "feature_read_cost",
        "Cost of one feature read",
        "$",
        0.000001,
        0,
        1,
        step=1e-8,
        log=True,
        slider_min=1e-8,
        slider_max=0.01,
    ),
    Param(
        "calls_per_prediction",
        "Calls per prediction",
        "calls",
        1.0,
        1,
        100,
        step=0.01,
        slider_max=10,
        help="1 with no retries; 1.5 if half the predictions are retried once.",
    ),
)


def _parts(v, utilization: float | np.ndarray) -> tuple:
    """Per prediction: the capacity part and the feature-read part."""
    per_call = v["hourly_cost"] / (v["capacity_per_s"] * 3600 * utilization)
    return v["calls_per_prediction"] * per_call, v["calls_per_prediction"] * v["feature_reads"] * v["feature_read_cost"]


def compute(v) -> dict:
    predictions_per_hour = v["capacity_per_s"] * 3600 * v["utilization"]
    serving = v["hourly_cost"] / predictions_per_hour
    reads = v["feature_reads"] * v["feature_read_cost"]
    per_prediction = v["calls_per_prediction"] * (serving + reads)
    has_cost = serving + reads > 0
    full_fixed, full_reads = _parts(v, 1.0)
    return {
        "predictions_per_hour": predictions_per_hour,
        "serving_cost_per_call": serving,
        "feature_cost_per_call": reads,
        "cost_per_prediction": per_prediction,
        "cost_per_million": per_prediction * 1e6,
        # The fixed share does not exist when a call costs nothing at all.
        "has_cost": has_cost,
        "fixed_share": serving / (serving + reads) if has_cost else None,
        "cost_per_million_at_full_load": (full_fixed + full_reads) * 1e6,
    }


def explain(v, o) -> Explanation:
    u, calls = v["utilization"], v["calls_per_prediction"]
    serving, reads = o["serving_cost_per_call"], o["feature_cost_per_call"]
    n, read_cost = v["feature_reads"], v["feature_read_cost"]
    steps = [
        f"At {percent(u)} utilisation a replica that could serve {num(v['capacity_per_s'])} calls a second "
        f"serves {num(v['capacity_per_s'])} × 3,600 × {num(u)} = {num(o['predictions_per_hour'])} predictions "
        f"(model calls) an hour.",
    ]
    if v["hourly_cost"] > 0:
        steps.append(
            f"Spread the {money(v['hourly_cost'])} hour over them: {money(v['hourly_cost'])} ÷ "
            f"{num(o['predictions_per_hour'])} = {money(serving)} of capacity per call."
        )
    else:
        steps.append("The capacity costs nothing by the hour, so a call carries no share of it.")
    if reads > 0 and n == 1:
        steps.append(f"One feature read adds {money(reads)} per call.")
    elif reads > 0:
        steps.append(
            f"{integer(n)} feature reads at {money(read_cost)} each add {integer(n)} × {money(read_cost)} "
            f"= {money(reads)} per call."
        )
    else:
        steps.append("Feature reads add nothing per call here.")

    if calls == 1:
        steps.append(
            f"One call per prediction: {money(serving)} + {money(reads)} = {money(o['cost_per_prediction'])} "
            f"a prediction, or {money(o['cost_per_million'])} per million."
        )
    else:
        steps.append(
            f"Retries make each prediction {num(calls)} calls: {num(calls)} × ({money(serving)} + {money(reads)}) "
            f"= {money(o['cost_per_prediction'])} a prediction, or {money(o['cost_per_million'])} per million."
        )

    if not o["has_cost"]:
        conclusion = "With free capacity and free reads a prediction costs nothing; the arithmetic needs a price."
        return Explanation(steps, conclusion)

    if serving == 0:
        conclusion = (
            f"{money(o['cost_per_million'])} per million predictions, all of it feature reads: here the reads per "
            f"prediction and the retries set the price."
        )
        return Explanation(steps, conclusion)

    steps.append(
        f"{percent(o['fixed_share'])} of each call is capacity paid for by the hour whether it is busy or "
        f"not; one more request adds only its reads, {money(reads)}."
    )
    third_fixed, third_reads = _parts(v, u / 3)
    at_third = (third_fixed + third_reads) * 1e6
    if u < 1:
        lead = "Utilisation dominates" if o["fixed_share"] >= 0.5 else "Utilisation matters less here"
        steps.append(
            f"{lead}: run flat out (100 %) the same replica would cost "
            f"{money(o['cost_per_million_at_full_load'])} per million; at a third of today's utilisation "
            f"({percent(u / 3)}) it costs {money(at_third)}."
        )
    else:
        steps.append(
            "The replica already runs flat out: only a cheaper replica or a faster model lowers the capacity part now."
        )
    steps.append(
        f"So the bill can grow while traffic stays flat: a larger model version with a third of the "
        f"capacity ({num(v['capacity_per_s'] / 3)} calls a second) costs {money(at_third)} per million "
        f"({times(at_third / o['cost_per_million'])} today's), as do "
        f"warm replicas left idle that cut utilisation to a third; retries that double the calls per prediction "
        f"double it to {money(2 * o['cost_per_million'])}; and each extra feature read adds "
        f"{money(read_cost * calls * 1e6)} per million. Costing each request this way shows which one happened."
    )
    if o["fixed_share"] >= 0.5:
        conclusion = (
            f"{money(o['cost_per_million'])} per million predictions, {percent(o['fixed_share'])} of it fixed "
            f"capacity: how busy the replicas are, not how many requests arrive, sets the price of a prediction."
        )
    else:
        conclusion = (
            f"{money(o['cost_per_million'])} per million predictions, only {percent(o['fixed_share'])} of it "
            f"capacity: here the feature reads per prediction set the price."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    u = v["utilization"]
    grid = fig.log_span(min(0.01, u), 1.0, 48)
    fixed, reads = _parts(v, grid)
    total = (fixed + reads) * 1e6
    hover = "%{x:.1%} busy → $%{y:,.3~g} per million"
    traces = [fig.line(grid, total, "total", fig.BLUE, hover=hover)]
    if v["hourly_cost"] > 0 and reads > 0:
        traces.append(fig.line(grid, fixed * 1e6, "capacity (fixed)", fig.ORANGE, dash="dash", hover=hover))
    if reads > 0:
        traces.append(
            fig.line(grid, np.full_like(grid, reads * 1e6), "feature reads", fig.GREEN, dash="dot", hover=hover)
        )
    traces.append(
        fig.points(
            [u],
            [o["cost_per_million"]],
            "this setting",
            text=[f"{money(o['cost_per_million'])} per million"],
            hover=hover,
        )
    )
    positive = o["cost_per_million"] > 0
    return [
        fig.figure(
            "Cost per million predictions against utilisation",
            traces,
            fig.axis("utilisation", log=True, tickformat=".0%"),
            fig.axis("cost per million predictions ($)", log=positive, tickprefix="$"),
        )
    ]


CALCULATOR = Calculator(
    slug="cost-per-prediction",
    title="Cost per prediction: capacity over the predictions it delivers, plus feature reads",
    summary="What one prediction costs at real utilisation, how much of it is fixed, and why a bill can triple "
    "while traffic stays flat.",
    order=120,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("cost_per_prediction", "Per prediction", money),
        Headline("cost_per_million", "Per million", money),
        Headline("fixed_share", "Fixed (capacity) share", percent),
    ),
)
