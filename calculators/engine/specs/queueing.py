"""queueing: why p95 time to first token degrades first (an M/M/c queue of decode slots).

Requests arrive at random (Poisson) and each holds one of ``slots`` decode slots
for an exponentially distributed time with mean ``mean_request_s``. Erlang C is
the chance an arrival finds every slot busy and must queue.

Erlang C is computed through Erlang B with the recursion
B_0 = 1, B_k = A·B_{k−1} / (k + A·B_{k−1}), then C = B / (1 − ρ(1 − B)):
no factorial or power of A is ever formed, so it stays exact to rounding for
10,000 slots and any load.

When the queue is not stable (utilisation ≥ 1) the waits have no steady state:
``mean_wait_s``, ``mean_queue_length``, ``p95_wait_s`` and ``p95_ttft_s`` are
None and ``stable`` is False. ``prob_wait`` is then 1.0, its limit: a queue that
never drains ends up making every arrival wait.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from .. import figures as fig
from ..spec import Calculator, Explanation, Headline, Param
from ..units import count, integer, num, per_second, percent, sci, seconds

TAIL = 0.05  # the 5 % of requests beyond the 95th percentile
MAX_SLOTS = 10_000

PARAMS = (
    Param(
        "slots",
        "Decode slots",
        "slots",
        16,
        1,
        MAX_SLOTS,
        integer=True,
        log=True,
        slider_max=4096,
        help="Requests the stack serves at once (across every replica); the rest wait in a queue.",
    ),
    Param(
        "arrival_rate_per_s",
        "Arrival rate",
        "requests/s",
        1.0,
        0,
        1e6,
        step=0.01,
        log=True,
        slider_min=0.01,
        slider_max=1000,
        help="Mean rate of new requests; arrivals are random (Poisson).",
    ),
    Param(
        "mean_request_s",
        "Time a request holds a slot",
        "s",
        12.5,
        0.001,
        1e5,
        step=0.1,
        log=True,
        slider_min=0.1,
        slider_max=600,
        help="From admission until its last token: prefill plus the whole decode.",
    ),
    Param(
        "prefill_s",
        "Prefill time",
        "s",
        0.28,
        0,
        1e4,
        step=0.01,
        log=True,
        slider_min=0.01,
        slider_max=60,
        help="The prompt pass after admission; time to first token is the queue wait plus this.",
    ),
)


def erlang_b(slots: int, load: float) -> float:
    """Erlang B by the stable recursion (loss probability with ``slots`` servers)."""
    b = 1.0
    for k in range(1, slots + 1):
        ab = load * b
        b = ab / (k + ab)
    return b


def erlang_c(slots: int, load: float) -> float:
    """Erlang C, the chance an arrival waits; 1.0 when the load reaches the slots."""
    if load >= slots:
        return 1.0
    b = erlang_b(slots, load)
    return b / (1 - load / slots * (1 - b))


def _erlang_scan(slots: int, load: float) -> tuple[float, int | None]:
    """Erlang B at ``slots``, and the fewest slots (up to 10,000) where Erlang C ≤ 5 %.

    One pass of the recursion serves both: it stops at whichever k comes last.
    """
    b, b_at_slots, enough = 1.0, 1.0, None
    for k in range(1, MAX_SLOTS + 1):
        ab = load * b
        b = ab / (k + ab)
        if k == slots:
            b_at_slots = b
        if enough is None and k > load and b / (1 - load / k * (1 - b)) <= TAIL:
            enough = k
        if k >= slots and enough is not None:
            break
    return b_at_slots, enough


def erlang_c_curve(slots: int, loads) -> np.ndarray:
    """Erlang C for many loads at once (each below ``slots``), fast even at 10,000 slots.

    Unrolling the recursion in the form 1/B_k = 1 + (k/A)·(1/B_{k−1}) gives
    1/B_c = Σ_j Π_{i=c−j+1..c} (i/A): a sum of terms that peak where i ≈ A and
    fall off like a Gaussian of width √A on either side. Summed in logs (no
    overflow), only the terms within about 8√A of the peak matter, so the
    work is a few √c terms per load instead of c steps. Loads whose largest
    term alone exceeds e³⁶ have B < 10⁻¹⁵: there Erlang C is zero to plotting
    precision and is skipped.
    """
    loads = np.asarray(loads, dtype=float)
    out = np.zeros_like(loads)
    keep = []
    for n, a in enumerate(loads.tolist()):
        if a <= 0:
            continue
        if a >= slots:
            out[n] = 1.0
            continue
        m = math.ceil(a)
        peak = math.lgamma(slots + 1) - math.lgamma(m + 1) - (slots - m) * math.log(a)
        if peak < 36:
            keep.append(n)
    if not keep:
        return out
    a = loads[keep]
    low = float(a.min())
    k0 = max(0, math.floor(low - 8 * math.sqrt(low) - 8))
    i = np.arange(slots, k0, -1, dtype=float)  # c, c−1, …, k0+1
    log_terms = np.cumsum(np.log(i[None, :] / a[:, None]), axis=1)
    top = np.maximum(log_terms.max(axis=1), 0.0)
    log_inverse_b = top + np.log(np.exp(-top) + np.exp(log_terms - top[:, None]).sum(axis=1))
    b = np.exp(-log_inverse_b)
    out[keep] = b / (1 - a / slots * (1 - b))
    return out


@lru_cache(maxsize=1024)
def knee_utilization(slots: int) -> float:
    """Utilisation at which Erlang C reaches 5 %: below it, p95 TTFT is the bare prefill.

    A function of the slot count alone, and 0.3 ms to find: kept for the slot counts in use.
    """
    lo, hi = 0.0, 1.0
    for _ in range(3):  # 32 points a round: the bracket ends 1/33³ ≈ 3 × 10⁻⁵ wide
        grid = np.linspace(lo, hi, 34)[1:-1]
        c = erlang_c_curve(slots, grid * slots)
        n = int(np.searchsorted(c, TAIL))
        lo = float(grid[n - 1]) if n > 0 else lo
        hi = float(grid[n]) if n < len(grid) else hi
    return (lo + hi) / 2


def _p95_wait(prob_wait, drain_s):
    return np.where(prob_wait > TAIL, np.log(np.maximum(prob_wait, TAIL) / TAIL) * drain_s, 0.0)


def compute(v) -> dict:
    slots, lam, hold, prefill = v["slots"], v["arrival_rate_per_s"], v["mean_request_s"], v["prefill_s"]
    load = lam * hold
    utilization = load / slots
    stable = utilization < 1
    b, enough = _erlang_scan(slots, load)
    if b < 1e-300:
        b = 0.0  # below any figure worth printing (and clear of subnormals, which lose their digits)
    out = {
        "offered_load": load,
        "utilization": utilization,
        "stable": stable,
        "erlang_b": b,
        "spare_slots": slots - load,
        "min_stable_slots": math.floor(load) + 1,
        "slots_to_keep_p95_at_prefill": enough,
        "knee_utilization": knee_utilization(slots),
    }
    if not stable:
        return {
            **out,
            "prob_wait": 1.0,
            "wait_if_queued_s": None,
            "mean_wait_s": None,
            "mean_queue_length": None,
            "p95_wait_s": None,
            "p95_ttft_s": None,
            "mean_ttft_s": None,
        }
    prob_wait = b / (1 - utilization * (1 - b))
    drain_s = hold / (slots - load)  # mean wait of a request that does queue
    mean_wait = prob_wait * drain_s
    p95_wait = math.log(prob_wait / TAIL) * drain_s if prob_wait > TAIL else 0.0
    return {
        **out,
        "prob_wait": prob_wait,
        "wait_if_queued_s": drain_s,
        "mean_wait_s": mean_wait,
        "mean_queue_length": lam * mean_wait,
        "p95_wait_s": p95_wait,
        "p95_ttft_s": p95_wait + prefill,
        "mean_ttft_s": mean_wait + prefill,
    }


def _share(x: float) -> str:
    """A probability as a decimal a reader can put into ln(): 0.264."""
    return "0" if x == 0 else (num(x) if x >= 1e-3 else sci(x))


def _utilisation(u: float) -> str:
    if u == 0:
        return "0 %"
    return f"{num(u)} ({percent(u)})" if u < 10 else f"{num(u)}, far past 100 %"


def _unstable(v, o) -> tuple[list[str], str]:
    slots, lam, hold, prefill = v["slots"], v["arrival_rate_per_s"], v["mean_request_s"], v["prefill_s"]
    enough = o["slots_to_keep_p95_at_prefill"]
    enough_text = count(enough, "slot") if enough is not None else f"more than {count(MAX_SLOTS, 'slot')}"
    knee = o["knee_utilization"]
    steps = [
        f"{count(slots, 'slot')} finish at most {integer(slots)} ÷ {seconds(hold)} = "
        f"{per_second(slots / hold, 'request')}, "
        + (
            f"fewer than the {per_second(lam, 'request')} arriving"
            if slots / hold < lam
            else "exactly what arrives, with no slack"
        )
        + ", so the queue never drains: in the long run every arrival waits (probability 1) and the wait keeps "
        "growing.",
        "A queue that grows without limit has no steady mean or p95 wait to report: time to first "
        "token climbs for as long as the overload lasts.",
        f"Just keeping up needs more slots than the load of {num(o['offered_load'])}: at least "
        f"{integer(o['min_stable_slots'])}. Holding p95 TTFT at the bare prefill ({seconds(prefill)}), so that "
        f"no more than 5 % of arrivals queue, needs {enough_text}.",
        f"With {count(slots, 'slot')}, p95 TTFT stays at the prefill only while utilisation is below "
        f"{percent(knee)}, that is while fewer than {per_second(knee * slots / hold, 'request')} arrive.",
    ]
    conclusion = (
        f"With {num(o['offered_load'])} requests' worth of work for {count(slots, 'slot')} the queue never "
        f"drains and time to first token grows without bound: add slots (at least "
        f"{integer(o['min_stable_slots'])}) or shed load."
    )
    return steps, conclusion


def explain(v, o) -> Explanation:
    slots, lam, hold, prefill = v["slots"], v["arrival_rate_per_s"], v["mean_request_s"], v["prefill_s"]
    load, u, knee = o["offered_load"], o["utilization"], o["knee_utilization"]
    enough = o["slots_to_keep_p95_at_prefill"]
    enough_text = count(enough, "slot") if enough is not None else f"more than {count(MAX_SLOTS, 'slot')}"
    if lam == 0:
        first = f"No requests arrive, so the load is 0 and the {count(slots, 'slot')} sit idle: 0 % utilisation."
    else:
        first = (
            f"Little's law: {per_second(lam, 'request')} × {seconds(hold)} each = {num(load)} requests holding a "
            f"slot on average "
            f"(the offered load, in Erlangs); over {count(slots, 'slot')} that is {num(load)} ÷ {integer(slots)} = "
            f"{_utilisation(u)} utilisation."
        )
    steps = [first]
    if not o["stable"]:
        more, conclusion = _unstable(v, o)
        return Explanation(steps + more, conclusion)

    c, drain = o["prob_wait"], o["wait_if_queued_s"]
    busy = "the only slot is" if slots == 1 else f"all {integer(slots)} slots are"
    if lam == 0:
        steps.append(
            "With nothing arriving nobody queues: the chance of waiting (Erlang C) is 0, and so are the mean "
            "and p95 waits."
        )
    elif o["erlang_b"] == 0:
        steps.append(
            f"Erlang C is the chance that {busy} busy when a request arrives. From the Erlang B recursion "
            f"B_k = A·B_(k−1) ÷ (k + A·B_(k−1)) with A = {num(load)}, both B and C come out below 10⁻³⁰⁰: "
            f"with {num(o['spare_slots'])} slots of slack nobody ever queues, and the waits are 0."
        )
    else:
        steps.append(
            f"Erlang C is the chance that {busy} busy when a request arrives. It comes from the Erlang B "
            f"recursion B_k = A·B_(k−1) ÷ (k + A·B_(k−1)) with A = {num(load)}, which never forms a factorial: "
            f"B = {_share(o['erlang_b'])}, so C = B ÷ (1 − {num(u)} × (1 − B)) = {_share(c)}"
            + (f": {percent(c)} of requests queue." if c >= 1e-3 else ": practically no request queues.")
        )
        steps.append(
            f"A queued request waits for the next slot to free up. With {integer(slots)} − {num(load)} = "
            f"{num(o['spare_slots'])} slots of slack that takes {seconds(hold)} ÷ {num(o['spare_slots'])} = "
            f"{seconds(drain)} on average; over everyone the mean wait is {_share(c)} × {seconds(drain)} = "
            f"{seconds(o['mean_wait_s'])}, with {per_second(lam, 'request')} × {seconds(o['mean_wait_s'])} = "
            f"{num(o['mean_queue_length'])} requests in the queue on average."
        )
        if c > TAIL:
            steps.append(
                f"More than 5 % of requests queue, so the 95th percentile lands among the queued ones: "
                f"p95 wait = ln({_share(c)} ÷ 0.05) × {seconds(drain)} = {seconds(o['p95_wait_s'])}."
            )
        else:
            steps.append(
                f"{'Only ' + percent(c) if c >= 1e-3 else 'Hardly any'} of the requests queue, within the 5 % "
                f"the 95th percentile leaves out, so the p95 request does not wait at all: p95 wait = 0."
            )
    steps.append(
        f"Time to first token is the wait plus the {seconds(prefill)} prefill: p95 TTFT = "
        f"{seconds(o['p95_wait_s'])} + {seconds(prefill)} = {seconds(o['p95_ttft_s'])}, against a mean TTFT of "
        f"{seconds(o['mean_wait_s'])} + {seconds(prefill)} = {seconds(o['mean_ttft_s'])}."
    )
    if c > TAIL:
        steps.append(
            f"Why the tail moves first: with {count(slots, 'slot')} the p95 stays at the bare prefill only until "
            f"utilisation reaches {percent(knee)}, where 5 % of arrivals start to queue. Past that it follows the "
            f"queue wait, {seconds(hold)} ÷ (slots of slack), which grows like 1 ÷ (1 − utilisation), while the "
            f"mean is diluted by the {percent(1 - c)} who never wait. This traffic needs {enough_text} to keep the "
            f"p95 at the prefill."
        )
        ratio = f", {num(o['p95_ttft_s'] / prefill)}× the {seconds(prefill)} prefill," if prefill > 0 else ""
        conclusion = (
            f"At {percent(u)} utilisation p95 TTFT is {seconds(o['p95_ttft_s'])}{ratio} while the mean is only "
            f"{seconds(o['mean_ttft_s'])}: the tail turns up first, so watch p95 TTFT."
        )
    else:
        steps.append(
            f"Why the tail moves first: nothing shows yet, but with {count(slots, 'slot')} the p95 leaves the bare "
            f"prefill as soon as utilisation passes {percent(knee)}, where 5 % of arrivals start to queue; from "
            f"there it follows the queue wait, {seconds(hold)} ÷ (slots of slack), which grows like "
            f"1 ÷ (1 − utilisation) while the mean is still diluted by the many who never wait."
        )
        conclusion = (
            f"At {percent(u)} utilisation p95 TTFT is still the bare prefill ({seconds(prefill)}); past "
            f"{percent(knee)} it turns up long before the mean does, so watch p95 TTFT first."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    slots, hold, prefill = v["slots"], v["mean_request_s"], v["prefill_s"]
    u = o["utilization"]
    top_u = u if o["stable"] and u > 0.99 else 0.99
    grid = 1 - fig.log_span(1, 1 - top_u, 56)  # 0 … 0.99, dense where the curve bends
    grid[0] = 0.0
    loads = grid * slots
    c = erlang_c_curve(slots, loads)
    drain = hold / (slots - loads)
    p95 = _p95_wait(c, drain) + prefill
    mean = c * drain + prefill
    hover = "%{x:.1%} busy → %{y:.3s} s"
    traces = [
        fig.line(grid, p95, "p95 time to first token", fig.VERMILION, hover=hover),
        fig.line(grid, mean, "mean time to first token", fig.BLUE, dash="dash", hover=hover),
    ]
    knee = o["knee_utilization"]
    shape, note = fig.vline(knee, f"5 % queue at {percent(knee)}", fig.GREY)
    shapes, notes = [shape], [note]
    candidates = [float(p95[np.searchsorted(grid, 0.95)]), 3 * prefill]
    if o["stable"]:
        traces.append(fig.points([u], [o["p95_ttft_s"]], "this setting", text=[seconds(o["p95_ttft_s"])], hover=hover))
        candidates.append(1.5 * o["p95_ttft_s"])
    else:
        notes.append(
            {
                "x": 1,
                "xref": "paper",
                "y": 1,
                "yref": "paper",
                "xanchor": "right",
                "yanchor": "top",
                "showarrow": False,
                "font": {"size": 12, "color": fig.VERMILION},
                "text": f"this setting: {percent(u) if u < 10 else num(u) + '× capacity'} busy, the queue never drains",
            }
        )
    y_top = max(candidates)
    y_axis = (
        fig.axis("time to first token (s)", range_=[0, y_top * 1.05])
        if 0 < y_top < float(p95.max())
        else fig.axis("time to first token (s)", rangemode="tozero")
    )
    return [
        fig.figure(
            f"Time to first token against utilisation, {count(slots, 'slot')}",
            traces,
            fig.axis("utilisation (share of slots busy)", range_=[0, 1], tickformat=".0%"),
            y_axis,
            shapes=shapes,
            annotations=notes,
        )
    ]


CALCULATOR = Calculator(
    slug="queueing",
    title="Queueing for decode slots: why p95 time to first token degrades first",
    summary="An M/M/c queue of decode slots: how often requests wait, how long, and how the p95 time to first "
    "token bends upward as utilisation rises.",
    order=90,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("utilization", "Utilisation", percent),
        Headline("prob_wait", "Requests that queue", percent),
        Headline("p95_ttft_s", "p95 time to first token", seconds),
        Headline("mean_ttft_s", "Mean time to first token", seconds),
    ),
)
