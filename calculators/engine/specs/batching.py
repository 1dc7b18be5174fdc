"""batching: why a bigger batch raises aggregate throughput far more than it slows each user."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from .. import shared_params as shared
from ..measured import LAYERS, Measured, series
from ..spec import Calculator, Explanation, Headline, Overlay, Param
from ..units import bandwidth, bytes_binary, bytes_decimal, integer, num, percent, plural, rate, seconds, si, tflops

PARAMS = (
    shared.params_b(70),
    shared.active_params_b(),
    shared.bytes_per_param(1),
    shared.bandwidth_tbs(3.35),
    shared.peak_tflops(989),
    Param(
        "batch",
        "Batch size",
        "users",
        16,
        1,
        100_000,
        integer=True,
        log=True,
        slider_max=4096,
        help="Sequences decoded together: one token each per step.",
    ),
    Param(
        "context_tokens",
        "KV tokens read per user",
        "tokens",
        0,
        0,
        10_000_000,
        integer=True,
        log=True,
        slider_min=1,
        slider_max=1_048_576,
        help="Tokens of cache each user's attention reads every step. 0 counts the weight reads only.",
    ),
    shared.kv_bytes_per_token(minimum=0),
)


def _times(v) -> dict:
    """The three per-step costs: weights once, cache and arithmetic once per user."""
    params = v["params_b"] * 1e9
    bw = v["bandwidth_tbs"] * 1e12
    peak = v["peak_tflops"] * 1e12
    weight_bytes = params * v["bytes_per_param"]
    kv_bytes_per_user = v["context_tokens"] * v["kv_bytes_per_token"]
    return {
        "params": params,
        "weight_bytes": weight_bytes,
        "kv_bytes_per_user": kv_bytes_per_user,
        "weight_s": weight_bytes / bw,
        "kv_s_per_user": kv_bytes_per_user / bw,
        "active": shared.active_b(v) * 1e9,
        "compute_s_per_user": 2 * shared.active_b(v) * 1e9 / peak,
    }


def _step_s(t: dict, batch):
    """max(memory time, compute time) for one decode step; batch may be an array."""
    memory = t["weight_s"] + batch * t["kv_s_per_user"]
    return np.maximum(memory, batch * t["compute_s_per_user"])


def compute(v) -> dict:
    t = _times(v)
    batch = v["batch"]
    memory_s = t["weight_s"] + batch * t["kv_s_per_user"]
    compute_s = batch * t["compute_s_per_user"]
    step_s = max(memory_s, compute_s)
    single_s = max(t["weight_s"] + t["kv_s_per_user"], t["compute_s_per_user"])
    # Compute time grows by compute_s_per_user per user, memory time by kv_s_per_user:
    # they meet only if the arithmetic grows faster than the cache reads.
    slack = t["compute_s_per_user"] - t["kv_s_per_user"]
    reachable = slack > 0
    return {
        "weight_bytes": t["weight_bytes"],
        "kv_bytes_per_user": t["kv_bytes_per_user"],
        "memory_s": memory_s,
        "compute_s": compute_s,
        "step_s": step_s,
        "per_user_tokens_per_s": 1 / step_s,
        "aggregate_tokens_per_s": batch / step_s,
        "single_user_tokens_per_s": 1 / single_s,
        "compute_bound": compute_s > memory_s,
        "compute_bound_reachable": reachable,
        "compute_bound_batch": t["weight_s"] / slack if reachable else None,
    }


def explain(v, o) -> Explanation:
    t = _times(v)
    b = v["batch"]
    users = "1 user" if b == 1 else f"{integer(b)} users"
    weight = bytes_decimal(o["weight_bytes"])
    bw = bandwidth(v["bandwidth_tbs"] * 1e12)
    peak = tflops(v["peak_tflops"] * 1e12)
    single = rate(o["single_user_tokens_per_s"])
    kv_user = o["kv_bytes_per_user"]
    one_compute = seconds(t["compute_s_per_user"])

    moe = shared.moe_note(v)
    steps = [
        f"{moe}The weights take {num(v['params_b'])} billion × {num(v['bytes_per_param'])} "
        f"{plural(v['bytes_per_param'], 'byte')} = {weight}, and each decode step streams all of them from memory "
        f"once, whatever the batch"
        + (" (every expert, once the batch's tokens are routed across all of them)." if moe else "."),
    ]
    active = num(shared.active_b(v))
    arithmetic = f"Its arithmetic, 2 × {active} billion FLOPs ÷ {peak} = {one_compute}"
    one_memory = t["weight_s"] + t["kv_s_per_user"]
    if t["compute_s_per_user"] > one_memory:
        arithmetic += f", outlasts that read, so even one user is compute-bound at {single}."
    elif t["compute_s_per_user"] > one_memory / 2:
        arithmetic += ", takes almost as long as that read."
    else:
        arithmetic += ", leaves the compute units idle for most of that step."
    if kv_user:
        steps.append(
            f"Each user's attention also reads its own cache every step: {integer(v['context_tokens'])} tokens × "
            f"{bytes_binary(v['kv_bytes_per_token'])} = {bytes_binary(kv_user)} ({bytes_decimal(kv_user)}), another "
            f"{seconds(t['kv_s_per_user'])} at {bw}. One user alone reads for {seconds(t['weight_s'])} + "
            f"{seconds(t['kv_s_per_user'])} = {seconds(one_memory)}. {arithmetic}"
        )
        memory_sum = (
            f"{weight} + {integer(b)} × {bytes_decimal(kv_user)} = {bytes_decimal(o['weight_bytes'] + b * kv_user)} "
            f"of reading per step, {seconds(o['memory_s'])}"
        )
    else:
        steps.append(
            f"One user alone: {bw} ÷ {weight} = {rate(1 / t['weight_s'])}, a step every {seconds(t['weight_s'])}. "
            f"{arithmetic}"
        )
        memory_sum = f"the same {weight} read, {seconds(o['memory_s'])}"

    if b > 1:
        work = (
            f"{integer(b)} × 2 × {active} billion = {si(b * 2 * t['active'], 'FLOPs')} "
            f"÷ {peak} = {seconds(o['compute_s'])}"
        )
        if o["compute_bound"]:
            steps.append(
                f"A batch of {users} costs {memory_sum}, but its arithmetic, {work}, takes longer: "
                f"the step is compute-bound at {seconds(o['step_s'])}."
            )
        else:
            steps.append(
                f"A batch of {users} costs {memory_sum}; its arithmetic, {work}, fits inside that, "
                f"so the step stays memory-bound at {seconds(o['step_s'])}."
            )
        steps.append(
            f"Each step hands every user one token: {integer(b)} ÷ {seconds(o['step_s'])} = "
            f"{rate(o['aggregate_tokens_per_s'])} in aggregate, and 1 ÷ {seconds(o['step_s'])} = "
            f"{rate(o['per_user_tokens_per_s'])} for each user (alone: {single})."
        )
    else:
        steps.append(
            f"With a batch of 1 the GPU delivers {single} in all: every step pays for the full weight read "
            f"to produce a single token."
        )

    kv_note = f", {bytes_decimal(kv_user)} a user here" if kv_user else ", left out here"
    cross = o["compute_bound_batch"]
    if o["compute_bound_reachable"] and cross is None:  # weight time ÷ a vanishing slack overflows a float
        steps.append(
            f"Each extra user adds only {one_compute} of arithmetic against the {seconds(t['weight_s'])} weight "
            f"read, so compute would take over only at a batch larger than any number a float holds: in practice "
            f"never, and the step stays memory-bound."
        )
    elif not o["compute_bound_reachable"]:
        steps.append(
            f"Each extra user adds {seconds(t['kv_s_per_user'])} of cache reading but only {one_compute} of "
            f"arithmetic, so the step never becomes compute-bound. The KV reads (KV tokens per user × bytes per "
            f"token{kv_note}) eat the slack instead: per-user speed falls from {single} as the batch grows, "
            f"and aggregate throughput levels off towards 1 ÷ {seconds(t['kv_s_per_user'])} = "
            f"{rate(1 / t['kv_s_per_user'])}."
        )
    elif cross <= 1:
        steps.append(
            f"Compute takes over at a batch of {num(cross)}, below one user: every step here is compute-bound, "
            f"so a bigger batch slows each user in proportion and aggregate throughput stays at "
            f"{rate(o['aggregate_tokens_per_s'])}."
        )
    else:
        net = t["compute_s_per_user"] - t["kv_s_per_user"]
        if kv_user:
            adds = (
                f"{one_compute} of arithmetic but also {seconds(t['kv_s_per_user'])} of cache reading, so the "
                f"arithmetic gains {seconds(net)} a user and"
            )
        else:
            adds = f"{one_compute} of arithmetic and nothing to read, so the arithmetic"
        if b > cross:
            where = f"this batch of {integer(b)} is past it"
        else:
            where = f"this batch of {integer(b)} is below it" if b > 1 else "one user is far below it"
        steps.append(
            f"Each extra user adds {adds} catches up with the {seconds(t['weight_s'])} weight read at "
            f"{seconds(t['weight_s'])} ÷ {seconds(net)} ≈ batch {num(cross)}, where compute takes over; {where}. "
            f"Below that batch, per-user speed stays near {single} unless the KV reads (KV tokens per user × bytes "
            f"per token{kv_note}) eat the slack; beyond it every extra user slows everyone and aggregate "
            f"throughput stops rising."
        )

    if t["compute_s_per_user"] > one_memory:
        conclusion = (
            f"Compute-bound even for one user: batching cannot beat {rate(1 / t['compute_s_per_user'])} on this chip, "
            f"it only shares that between more users."
        )
    elif b == 1:
        conclusion = (
            f"One user gets {single} from a step that could serve many: batching shares the {weight} read, "
            f"so aggregate throughput grows almost in step with the batch."
        )
    else:
        conclusion = (
            f"Batch {integer(b)} turns {single} into {rate(o['aggregate_tokens_per_s'])} for the GPU while each user "
            f"gets {rate(o['per_user_tokens_per_s'])}: batching shares the weight read, so it buys throughput, "
            f"not per-user speed."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    t = _times(v)
    b = v["batch"]
    cross = o["compute_bound_batch"]
    hi = max(b * 4.0, 64.0)
    if cross and cross >= 1:
        hi = max(hi, min(cross * 8.0, 1e8))
    batches = fig.log_span(1, hi, 63)
    if cross and 1 < cross < hi:
        batches = np.sort(np.append(batches, cross))  # a sharp corner where compute takes over
    step = _step_s(t, batches)
    traces = [
        fig.line(
            batches, batches / step, "aggregate tokens/s", fig.BLUE, hover="batch %{x:,.0f} → %{y:,.0f} tokens/s in all"
        ),
        fig.line(
            batches,
            1 / step,
            "per-user tokens/s",
            fig.ORANGE,
            yaxis="y2",
            hover="batch %{x:,.0f} → %{y:,.1f} tokens/s each",
        ),
    ]
    if o["kv_bytes_per_user"]:
        weights_only = np.maximum(t["weight_s"], batches * t["compute_s_per_user"])
        traces.append(
            fig.line(
                batches,
                batches / weights_only,
                "aggregate, weights read only",
                fig.BLUE,
                dash="dot",
                width=1.5,
                hover="batch %{x:,.0f} → %{y:,.0f} tokens/s",
            )
        )
    traces += [
        fig.points(
            [b],
            [o["aggregate_tokens_per_s"]],
            "this batch (aggregate)",
            fig.BLUE,
            text=[rate(o["aggregate_tokens_per_s"])],
            hover="batch %{x:,.0f} → %{y:,.0f} tokens/s",
        ),
        fig.points(
            [b],
            [o["per_user_tokens_per_s"]],
            "this batch (per user)",
            fig.ORANGE,
            symbol="diamond",
            yaxis="y2",
            hover="batch %{x:,.0f} → %{y:,.1f} tokens/s each",
        ),
    ]
    traces[-2]["textposition"] = "bottom right"  # keeps the figure clear of the crossover label above
    shapes, notes = [], []
    if cross and 1 <= cross <= hi:
        shape, note = fig.vline(cross, f"compute-bound from batch ≈ {num(cross)}", fig.VERMILION, log=True)
        shapes.append(shape)
        notes.append(note)
    return [
        fig.figure(
            "Throughput against batch size: the GPU's total and each user's share",
            traces,
            fig.axis("batch size (users decoded together)", log=True),
            fig.axis("aggregate tokens/s", log=True),
            yaxis2=fig.axis(
                "per-user tokens/s", range_=[0, o["single_user_tokens_per_s"] * 1.15], tickmode="auto", showgrid=False
            ),
            shapes=shapes,
            annotations=notes,
        )
    ]


PRECISION_OF = {2.0: "bf16", 1.0: "fp8"}


def overlay(v, o, m: Measured) -> Overlay:
    """The measured 70B-shaped layer's tokens/s against batch, and the theory with the measurement's assumptions."""
    bf16, fp8 = m.layer("bf16"), m.layer("fp8")
    steps = []
    one, sixty_four = m.layer_at("bf16", 1), m.layer_at("bf16", 64)
    if one is not None:
        layer_bytes = one["weight_bytes_per_layer"]
        predicted = m.predicted_tokens_per_s("bf16", 1, layer_bytes)
        steps.append(
            f"Measured on one {m.device}: {rate(one['tokens_per_s_80_layers'])} at batch 1 against {rate(predicted)} "
            f"predicted ({percent(one['tokens_per_s_80_layers'] / predicted)}), for {LAYERS} × "
            f"{integer(layer_bytes)} bytes of bf16 Llama-3-70B-shaped layer weights "
            f"({bytes_decimal(LAYERS * layer_bytes)}, no attention or KV cache) read at the "
            f"{bandwidth(m.bandwidth_tbs * 1e12)} datasheet bandwidth."
        )
    if one is not None and sixty_four is not None:
        steps.append(
            f"From batch 1 to 64 the measured step grew only {percent(sixty_four['layer_s'] / one['layer_s'] - 1)} "
            f"({seconds(LAYERS * one['layer_s'])} to {seconds(LAYERS * sixty_four['layer_s'])} for {LAYERS} layers), "
            f"so aggregate throughput rose "
            f"{integer(round(sixty_four['tokens_per_s_80_layers'] / one['tokens_per_s_80_layers']))}"
            f"-fold: {rate(one['tokens_per_s_80_layers'])} to {rate(sixty_four['tokens_per_s_80_layers'])}."
        )
    precision = PRECISION_OF.get(float(v["bytes_per_param"]))
    here = m.layer_at(precision, v["batch"]) if precision else None
    if here is not None and not (precision == "bf16" and v["batch"] == 1):  # batch 1 in bf16 is said above
        predicted = m.predicted_tokens_per_s(precision, v["batch"], here["weight_bytes_per_layer"])
        steps.append(
            f"At this batch of {integer(v['batch'])} in {precision}, the {m.device} measured "
            f"{rate(here['tokens_per_s_80_layers'])} against {rate(predicted)} predicted for the same layer "
            f"({percent(here['tokens_per_s_80_layers'] / predicted)})."
        )
    hover = "batch %{x:,.0f} → %{y:,.0f} tokens/s"
    traces = []
    for name, entries, colour, symbol in (("bf16", bf16, fig.VERMILION, "circle"), ("fp8", fp8, fig.PURPLE, "square")):
        if not entries:
            continue
        x, y = series(entries, "batch", "tokens_per_s_80_layers")
        traces.append(
            fig.points(
                x, y, f"measured {name}, {LAYERS} × 70B-shaped layer ({m.device})", colour, symbol, 8, hover=hover
            )
        )
        batches = fig.log_span(min(x), max(x), 48)
        predicted = batches / (LAYERS * m.predicted_layer_s(name, batches, entries[0]["weight_bytes_per_layer"]))
        traces.append(
            fig.line(batches, predicted, f"predicted {name} for that layer", colour, dash="dot", width=1.5, hover=hover)
        )
    return Overlay(steps, {0: traces})


CALCULATOR = Calculator(
    slug="batching",
    title="Batching: aggregate throughput against per-user speed",
    summary="How sharing each decode step's weight read across a batch multiplies tokens/s until compute or "
    "KV-cache reads catch up.",
    order=30,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    rules=shared.active_rule,
    overlay=overlay,
    headlines=(
        Headline("aggregate_tokens_per_s", "Aggregate", rate),
        Headline("per_user_tokens_per_s", "Per user", rate),
        Headline("compute_bound_batch", "Compute-bound from batch", num),
    ),
)
