"""autoscaling: scale on in-flight work, and keep warm the capacity a cold start cannot deliver in time.

Little's law turns traffic into concurrency (in flight = arrival rate × time in
the system), and concurrency, not the request rate, is what fills decode slots.
A new replica needs ``cold_start_s`` to boot and load weights; traffic keeps
compounding meanwhile, so the replicas that must already be warm are the ones
the traffic of one cold start from now will need.

Bounds keep everything finite: the growth factor is at most 2^(7200/60) = 2^120,
and a replica count above 2^53 (where floats stop telling whole numbers apart)
is returned as a float rather than an int so it still serialises as a number.
"""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from ..rounding import ceil_count
from ..spec import Calculator, Explanation, Headline, Param
from ..units import count, integer, money, num, per_second, percent, seconds, times

PARAMS = (
    Param(
        "arrival_rate_per_s",
        "Arrival rate",
        "requests/s",
        20,
        0,
        1e6,
        step=0.1,
        log=True,
        slider_min=0.1,
        slider_max=100_000,
    ),
    Param(
        "request_s",
        "Time in the system",
        "s",
        4,
        0.001,
        1e5,
        step=0.1,
        log=True,
        slider_min=0.1,
        slider_max=600,
        help="Mean time from arrival to the last token, queueing included.",
    ),
    Param(
        "slots_per_replica",
        "Slots per replica",
        "slots",
        16,
        1,
        100_000,
        integer=True,
        log=True,
        slider_max=1024,
        help="Requests one replica serves at once (its continuous-batching slots).",
    ),
    Param(
        "target_utilization",
        "Target utilisation",
        "fraction",
        0.7,
        0.01,
        1,
        step=0.01,
        help="Share of the slots to fill in steady state; the rest absorbs bursts.",
    ),
    Param(
        "cold_start_s",
        "Cold start",
        "s",
        300,
        0,
        7200,
        step=1,
        slider_max=1800,
        help="From asking for a replica to it serving: machine, container, loading the weights, warm-up.",
    ),
    Param(
        "growth_per_min",
        "Traffic growth",
        "fraction per minute",
        0.05,
        0,
        1,
        step=0.001,
        slider_max=0.3,
        help="Compound growth of the arrival rate during a ramp: 0.05 is 5 % a minute.",
    ),
    Param(
        "replica_cost_per_hour",
        "Replica cost",
        "$ per hour",
        4.0,
        0,
        1e5,
        step=0.01,
        log=True,
        slider_min=0.1,
        slider_max=1000,
    ),
)


def compute(v) -> dict:
    lam, hold, slots, target = v["arrival_rate_per_s"], v["request_s"], v["slots_per_replica"], v["target_utilization"]
    per_replica = slots * target
    in_flight = lam * hold
    needed = ceil_count(in_flight / per_replica)
    growth = (1 + v["growth_per_min"]) ** (v["cold_start_s"] / 60)  # at most 2^120
    arrival_later = lam * growth
    in_flight_later = arrival_later * hold
    warm = ceil_count(in_flight_later / per_replica)
    headroom = warm - needed
    return {
        "in_flight": in_flight,
        "requests_per_replica": per_replica,
        "replicas_needed": needed,
        "growth_over_cold_start": growth,
        "arrival_after_cold_start_per_s": arrival_later,
        "in_flight_after_cold_start": in_flight_later,
        "replicas_to_keep_warm": warm,
        "warm_headroom_replicas": headroom,
        "headroom_cost_per_hour": headroom * v["replica_cost_per_hour"],
        "headroom_cost_per_day": headroom * v["replica_cost_per_hour"] * 24,
        "replica_utilization": in_flight / (needed * slots) if needed else 0.0,
    }


def _dollars(x: float) -> str:
    return money(x) if x < 1e9 else "$" + num(x)


def _hourly(x: float) -> str:
    return f"{_dollars(x)} an hour"


def _ramp(v, o) -> list[str]:
    """The steps about the cold start, for traffic that is arriving."""
    lam, hold, g, cold = v["arrival_rate_per_s"], v["request_s"], v["growth_per_min"], v["cold_start_s"]
    per, warm = o["requests_per_replica"], o["replicas_to_keep_warm"]
    if cold == 0:
        return [
            "Replicas start instantly here, so capacity can follow demand with no lag and nothing has to be "
            "kept warm ahead of it."
        ]
    if g == 0:
        return [
            f"A new replica takes {seconds(cold)} to boot and load its weights, but traffic is flat, so the "
            f"replicas running now still cover it by the time a new one could serve."
        ]
    return [
        f"A new replica takes {seconds(cold)} to boot and load its weights. Traffic compounding {percent(g)} a "
        f"minute for {num(cold / 60)} minutes reaches {num(lam)} × {num(1 + g)}^{num(cold / 60)} = "
        f"{per_second(o['arrival_after_cold_start_per_s'], 'request')} ({times(o['growth_over_cold_start'])} "
        f"today's) by the time that replica could serve.",
        f"That is {num(o['arrival_after_cold_start_per_s'])} × {seconds(hold)} = "
        f"{num(o['in_flight_after_cold_start'])} in flight, and {num(o['in_flight_after_cold_start'])} ÷ {num(per)} "
        f"= {num(o['in_flight_after_cold_start'] / per)}, so {count(warm, 'replica')} must already be warm now: "
        f"a replica asked for once the queue forms arrives {seconds(cold)} too late.",
    ]


def explain(v, o) -> Explanation:
    lam, hold, slots, target = v["arrival_rate_per_s"], v["request_s"], v["slots_per_replica"], v["target_utilization"]
    cold, cost = v["cold_start_s"], v["replica_cost_per_hour"]
    per = o["requests_per_replica"]
    needed, warm, headroom = o["replicas_needed"], o["replicas_to_keep_warm"], o["warm_headroom_replicas"]
    slot_word = "slot" if slots == 1 else "slots"
    run_at = (
        f"run at {percent(target)} so bursts still find room"
        if target < 1
        else "run flat out (100 %), which leaves no room for bursts"
    )
    steps = [
        f"Little's law: {per_second(lam, 'request')} × {seconds(hold)} in the system = {num(o['in_flight'])} "
        f"requests in flight at any moment. That concurrency, not the request rate, is what occupies slots.",
        f"A replica has {integer(slots)} {slot_word}, {run_at}: {integer(slots)} × {percent(target)} = {num(per)} "
        f"{'request' if per == 1 else 'requests'} per replica.",
    ]
    if lam == 0:
        steps[1] += " With no traffic nothing is in flight, so no replica is needed for load, nor for growth."
        conclusion = (
            "No traffic, no replicas needed for load; once requests arrive, size on the work in flight and keep "
            "warm what one cold start of growth would need."
        )
        return Explanation(steps, conclusion)
    steps[1] += f" {num(o['in_flight'])} ÷ {num(per)} = {num(o['in_flight'] / per)}, so {count(needed, 'replica')} now."
    doubled = ceil_count(2 * o["in_flight"] / per)
    steps.append(
        f"Why in-flight work and not request rate: if replies took twice as long ({seconds(2 * hold)}), the same "
        f"{per_second(lam, 'request')} would keep {num(2 * o['in_flight'])} requests in flight and need "
        f"{count(doubled, 'replica')}, while a trigger on requests per second would not move at all."
    )
    steps += _ramp(v, o)
    if headroom > 0:
        steps.append(
            f"Warm headroom: {integer(warm)} − {integer(needed)} = {count(headroom, 'replica')} beyond what is "
            f"needed now, at "
            f"{_hourly(cost)} each = {_hourly(o['headroom_cost_per_hour'])} "
            f"({_dollars(o['headroom_cost_per_day'])} a day): the price of never making users wait out a cold start."
        )
        conclusion = (
            f"Size on in-flight work ({num(o['in_flight'])} requests → {count(needed, 'replica')}) and pay "
            f"{_hourly(o['headroom_cost_per_hour'])} to keep {count(headroom, 'replica')} warm, because a new replica "
            f"takes {seconds(cold)} to arrive."
        )
        return Explanation(steps, conclusion)
    if cold > 0 and v["growth_per_min"] > 0:
        steps.append(
            f"The growth over one cold start still fits in the {count(needed, 'replica')} already running, so no extra "
            f"warm replica is needed: headroom costs {_hourly(0)}."
        )
    conclusion = (
        f"Size on in-flight work ({num(o['in_flight'])} requests → {count(needed, 'replica')}); here covering the cold "
        f"start costs nothing extra, but a faster ramp or a slower start would call for warm replicas."
    )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    lam, hold = v["arrival_rate_per_s"], v["request_s"]
    per = o["requests_per_replica"]
    cold_min = v["cold_start_s"] / 60
    end = max(3 * cold_min, 10.0)
    step = next(s for s in (0.25, 0.5, 1, 2, 3, 5, 10, 15, 30) if end / s <= 60)
    t = np.arange(0, end + step / 2, step, dtype=float)

    def needed_at(minutes: np.ndarray) -> np.ndarray:
        return np.array([ceil_count(x) for x in lam * (1 + v["growth_per_min"]) ** minutes * hold / per])

    needed = needed_at(t)
    reactive = needed_at(np.maximum(t - cold_min, 0))
    hover = "%{x:.0f} min → %{y:,.0f} replicas"
    traces = [
        fig.line(t, needed, "replicas needed", fig.BLUE, hover=hover),
        fig.line(t, reactive, "scaling only when needed (gap = queueing)", fig.VERMILION, hover=hover, fill="tonexty"),
        fig.points(
            [0, cold_min],
            [o["replicas_needed"], o["replicas_to_keep_warm"]],
            "now and one cold start later",
            text=[f"now {integer(o['replicas_needed'])}", f"warm {integer(o['replicas_to_keep_warm'])}"],
            hover=hover,
        ),
    ]
    traces[2]["textposition"] = "top right"  # the "now" label sits on the y axis otherwise
    for trace in traces[:2]:
        trace["line"]["shape"] = "hv"
    traces[1]["fillcolor"] = "rgba(213, 94, 0, 0.15)"
    shapes, notes = [], []
    if cold_min > 0:
        shape, note = fig.vline(cold_min, f"cold start {seconds(v['cold_start_s'])}", fig.GREY)
        shapes.append(shape)
        notes.append(note)
    shape, note = fig.hline(o["replicas_to_keep_warm"], f"keep {integer(o['replicas_to_keep_warm'])} warm", fig.GREEN)
    shapes.append(shape)
    notes.append(note)
    low, high = float(needed[0]), float(needed[-1])
    log = low >= 1 and high > 1000 * low
    y_axis = fig.axis("replicas", log=log) if log else fig.axis("replicas", rangemode="tozero")
    return [
        fig.figure(
            f"Replicas over a traffic ramp of {percent(v['growth_per_min'])} a minute",
            traces,
            fig.axis("minutes from now", range_=[0, float(t[-1])]),
            y_axis,
            shapes=shapes,
            annotations=notes,
        )
    ]


CALCULATOR = Calculator(
    slug="autoscaling",
    title="Autoscaling a GPU inference service: in-flight work and warm capacity",
    summary="How many replicas the work in flight needs, and how many to keep warm so a growing load never "
    "waits out a cold start.",
    order=100,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("in_flight", "Requests in flight", num),
        Headline("replicas_needed", "Replicas needed now", integer),
        Headline("replicas_to_keep_warm", "Replicas to keep warm", integer),
        Headline("headroom_cost_per_hour", "Warm headroom", _hourly),
    ),
)
