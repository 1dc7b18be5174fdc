"""continuous-batching: static batches wait for their longest reply; continuous batching refills each slot."""

from __future__ import annotations

import math

from .. import figures as fig
from ..rounding import floor_count, tidy
from ..spec import Calculator, Explanation, Headline, Param
from ..units import count, integer, num, percent, rate, seconds, times

SHOWN_SLOTS = 8  # rows per scheme in the timeline
SEGMENT_BUDGET = 160  # bars in the timeline, to keep the figure small

PARAMS = (
    Param(
        "slots",
        "Decode slots",
        "slots",
        8,
        1,
        100_000,
        integer=True,
        log=True,
        slider_max=1024,
        help="Requests the GPU decodes side by side.",
    ),
    Param(
        "window_s",
        "Time window",
        "s",
        25,
        1,
        1_000_000,
        log=True,
        slider_max=3600,
        help="How long we watch the server.",
    ),
    Param(
        "tokens_per_s",
        "Decode speed per slot",
        "tokens/s",
        40,
        0.1,
        100_000,
        step=0.1,
        log=True,
        slider_min=1,
        slider_max=1000,
    ),
    Param(
        "response_tokens",
        "Mean reply length",
        "tokens",
        500,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_min=10,
        slider_max=100_000,
    ),
    Param(
        "longest_tokens",
        "Longest reply in a static batch",
        "tokens",
        1000,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_min=10,
        slider_max=100_000,
        help="A static batch frees its slots only when this reply is done.",
    ),
)


def compute(v) -> dict:
    slots, window, tps = v["slots"], v["window_s"], v["tokens_per_s"]
    response, longest = v["response_tokens"], v["longest_tokens"]
    capacity = slots * window * tps
    static_batch_s = longest / tps
    static_batches = floor_count(window / static_batch_s)
    static_completed = slots * static_batches
    continuous_completed = floor_count(capacity / response)
    static_tokens = static_completed * response
    return {
        "capacity_tokens": capacity,
        "static_batch_s": static_batch_s,
        "static_batches": static_batches,
        "static_completed": static_completed,
        "continuous_completed": continuous_completed,
        "static_slot_utilization": response / longest,
        "reply_s": response / tps,
        "static_idle_s_per_batch": (longest - response) / tps,
        "static_useful_tokens": static_tokens,
        "static_capacity_share": static_tokens / capacity,
        "static_finishes": static_completed > 0,
        "continuous_gain": continuous_completed / static_completed if static_completed else None,
    }


def rules(v) -> dict[str, list[str]]:
    if v["longest_tokens"] < v["response_tokens"]:
        return {
            "longest_tokens": [
                f"The longest reply ({integer(v['longest_tokens'])} tokens) cannot be shorter than the mean reply "
                f"({integer(v['response_tokens'])} tokens): raise it to at least {integer(v['response_tokens'])}."
            ]
        }
    return {}


def explain(v, o) -> Explanation:
    slots, window, tps = v["slots"], v["window_s"], v["tokens_per_s"]
    response, longest = v["response_tokens"], v["longest_tokens"]
    cap, batch_s, batches = o["capacity_tokens"], o["static_batch_s"], o["static_batches"]
    static, cont = o["static_completed"], o["continuous_completed"]
    the_slots = "the slot" if slots == 1 else f"the {integer(slots)} slots"
    steps = [
        f"In the {seconds(window)} window {the_slots} can decode at most {integer(slots)} × "
        f"{seconds(window)} × {rate(tps)} = {integer(cap) if cap == int(cap) else num(cap)} tokens.",
        f"Static batching admits {count(slots, 'request')} together and cannot start the next batch until its "
        f"longest reply, {count(longest, 'token')}, is done: {integer(longest)} ÷ {rate(tps)} = "
        f"{seconds(batch_s)} per batch.",
    ]
    if batches:
        leftover = tidy(window - batches * batch_s)
        tail = f"; the last {seconds(leftover)} start a batch that does not finish" if leftover > 0 else ""
        steps.append(
            f"{integer(batches)} whole {'batch fits' if batches == 1 else 'batches fit'} in {seconds(window)}, so "
            f"static batching completes {integer(batches)} × {integer(slots)} = "
            f"{count(static, 'reply', 'replies')}{tail}."
        )
    else:
        steps.append(
            f"That is longer than the {seconds(window)} window, so not one static batch finishes: "
            f"static batching completes 0 replies in the window."
        )
    if longest > response:
        steps.append(
            f"A mean reply of {count(response, 'token')} keeps its slot busy for {seconds(o['reply_s'])} of each "
            f"{seconds(batch_s)} batch, then the slot idles {seconds(o['static_idle_s_per_batch'])} waiting for the "
            f"longest one: only {percent(o['static_slot_utilization'])} of slot time does useful work "
            f"({integer(o['static_useful_tokens'])} of the {num(cap)} tokens the slots could decode)."
        )
    else:
        steps.append(
            f"Every reply here is as long as the longest ({count(response, 'token')}), so no slot waits inside a "
            f"batch: static batching only loses the time left over at the end of the window."
        )
    steps.append(
        f"Continuous batching schedules slot by slot: the step after a reply ends, a waiting request takes its "
        f"place, so no slot idles while requests queue. {num(cap)} tokens ÷ {integer(response)} tokens per reply "
        f"= {count(cont, 'reply', 'replies')}."
    )
    if static and cont > static:
        steps.append(
            f"That is {integer(cont)} ÷ {integer(static)} = {times(o['continuous_gain'])} as many replies "
            f"from the same slots. The limit moves to memory: every admitted request also holds KV cache, and "
            f"admitting too eagerly fills it, so running requests are preempted, re-queued and pay for prefill twice."
        )
    elif static:
        steps.append("With no idle slot time to reclaim, continuous batching finishes no more replies than static.")
    elif cont:
        steps.append(
            f"Continuous batching still finishes {count(cont, 'reply', 'replies')}, because short replies no "
            f"longer wait for the long one to leave the batch."
        )
    else:
        steps.append(
            f"Even continuous batching finishes nothing: one reply needs {count(response, 'token')} and the whole "
            f"window holds {num(cap)}."
        )

    if static and cont > static:
        conclusion = (
            f"Refilling each slot the moment it frees turns {count(static, 'reply', 'replies')} into {integer(cont)}: "
            f"{times(o['continuous_gain'])} as many from the same hardware."
        )
    elif static:
        conclusion = (
            f"When every reply is as long as the longest, both schedules finish {count(static, 'reply', 'replies')}."
        )
    else:
        conclusion = (
            f"Static batching finishes nothing inside the window; continuous batching finishes "
            f"{count(cont, 'reply', 'replies')}."
        )
    return Explanation(steps, conclusion)


def _timeline_span(v, o, rows: int) -> float:
    """The time the timeline shows: the whole window, or its start when that would need too many bars."""
    window, reply_s, batch_s = v["window_s"], o["reply_s"], o["static_batch_s"]
    per_row = SEGMENT_BUDGET / rows - 4  # each row also has a cut-off bar at each end
    bars_per_s = 1 / reply_s + 2 / batch_s
    return min(window, per_row / bars_per_s)


def charts(v, o) -> list[dict]:
    slots, window = v["slots"], v["window_s"]
    reply_s, batch_s = o["reply_s"], o["static_batch_s"]
    rows = min(slots, SHOWN_SLOTS)
    span = _timeline_span(v, o, rows)
    shown = [math.floor(k * slots / rows) for k in range(rows)]  # which slots the rows stand for

    kinds = {
        "static: decoding a reply": fig.BLUE,
        "static: idle, waiting for the longest reply": "#d1d5db",
        "continuous: decoding a reply (slots out of step)": fig.GREEN,
        "not finished when the window closes": fig.YELLOW,
    }
    segments: dict[str, tuple[list, list, list]] = {name: ([], [], []) for name in kinds}  # starts, lengths, rows

    def add(name: str, start: float, end: float, row: int) -> None:
        end = min(end, span)
        if end > start:
            segments[name][0].append(start)
            segments[name][1].append(end - start)
            segments[name][2].append(row)

    finished_by = o["static_batches"] * batch_s
    for r in range(rows):
        t = 0.0
        while t < span:
            done = t + batch_s <= finished_by + 1e-9 * batch_s
            add(
                "static: decoding a reply" if done else "not finished when the window closes",
                t,
                min(t + reply_s, window),
                r,
            )
            add(
                "static: idle, waiting for the longest reply" if done else "not finished when the window closes",
                t + reply_s,
                min(t + batch_s, window),
                r,
            )
            t += batch_s
    # Continuous: slots run out of phase (the steady state); slot i's replies end at (i + 1)/n, 1 + (i + 1)/n, …
    # reply lengths into the window, so the ends across all slots add up to floor(capacity / response).
    for r, i in enumerate(shown):
        row = rows + 1 + r
        end = (i + 1) / slots * reply_s
        start = 0.0
        while start < span:
            finished = end <= window * (1 + 1e-9)
            add(
                "continuous: decoding a reply (slots out of step)"
                if finished
                else "not finished when the window closes",
                start,
                min(end, window),
                row,
            )
            start, end = end, end + reply_s

    traces = []
    for name, colour in kinds.items():
        starts, lengths, ys = segments[name]
        if not starts:
            continue
        # With a base, plotly reports a bar's end as its x: the hover reads "from start to end".
        trace = fig.bars(ys, lengths, name, colour, orientation="h", hover="from %{base:.3s} s to %{x:.3s} s")
        trace["x"], trace["y"], trace["base"] = fig.rounded(lengths), ys, fig.rounded(starts)
        trace["marker"]["line"] = {"color": "#ffffff", "width": 1}
        traces.append(trace)

    labels = [f"static, slot {i + 1}" for i in shown] + [""] + [f"continuous, slot {i + 1}" for i in shown]
    shapes, notes = [], []
    if span >= window:
        shape, note = fig.vline(window, f"window ends at {seconds(window)}", fig.VERMILION)
        note["xanchor"] = "right"
        shapes, notes = [shape], [note]
    shown_part = [f"{rows} of {integer(slots)} slots"] if slots > rows else []
    if span < window:
        shown_part.append(f"first {seconds(span)} of {seconds(window)}")
    title = "Slot timeline" + (f" ({', '.join(shown_part)})" if shown_part else "")
    chart = fig.figure(
        f"{title}: static completes {integer(o['static_completed'])}, continuous {integer(o['continuous_completed'])}",
        traces,
        fig.axis("time in the window (s)", range_=[0, span * 1.02]),
        fig.axis(
            "",
            autorange="reversed",
            tickmode="array",
            tickvals=list(range(2 * rows + 1)),
            ticktext=labels,
            showgrid=False,
        ),
        shapes=shapes,
        annotations=notes,
        barmode="overlay",
    )
    chart["layout"]["height"] = 220 + 22 * (2 * rows + 1)
    chart["layout"]["margin"]["l"] = 140
    return [chart]


CALCULATOR = Calculator(
    slug="continuous-batching",
    title="Static vs continuous batching: replies finished in a window",
    summary="How many replies the same decode slots finish when a batch waits for its longest reply, "
    "and when each slot is refilled as soon as it frees.",
    order=40,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    rules=rules,
    headlines=(
        Headline("static_completed", "Static batching completes", integer),
        Headline("continuous_completed", "Continuous batching completes", integer),
        Headline("static_slot_utilization", "Static slot utilisation", percent),
    ),
)
