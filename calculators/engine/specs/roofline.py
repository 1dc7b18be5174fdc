"""roofline: decode is memory-bound, prefill compute-bound, and the ridge point says why."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from .. import shared_params as shared
from ..measured import Measured, series
from ..spec import Calculator, Explanation, Headline, Overlay, Param
from ..units import bandwidth, bytes_decimal, integer, num, percent, plural, rate, seconds, si, tflops, times

PARAMS = (
    shared.peak_tflops(989),
    shared.bandwidth_tbs(3.35),
    shared.params_b(70),
    shared.active_params_b(),
    shared.bytes_per_param(2),
    Param(
        "prefill_tokens",
        "Prompt tokens in one prefill pass",
        "tokens",
        2000,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_max=1_000_000,
        help="Every prompt token is multiplied against the same weight read.",
    ),
    Param(
        "decode_batch",
        "Decode batch",
        "users",
        1,
        1,
        100_000,
        integer=True,
        log=True,
        slider_max=4096,
        help="Sequences decoded together, one token each per step, sharing one read of the weights.",
    ),
)


def _attainable_tflops(intensity: float, peak_tflops: float, bandwidth_tbs: float) -> float:
    """The roof: memory-limited below the ridge, compute-limited above it (TB/s × FLOP/byte = TFLOP/s)."""
    return min(peak_tflops, intensity * bandwidth_tbs)


def compute(v) -> dict:
    params = v["params_b"] * 1e9
    active = shared.active_b(v) * 1e9  # FLOPs are spent on these; the bytes read are all the parameters
    peak = v["peak_tflops"] * 1e12
    bw = v["bandwidth_tbs"] * 1e12
    bpp = v["bytes_per_param"]
    batch = v["decode_batch"]
    weight_bytes = params * bpp
    ridge = peak / bw
    decode_intensity = 2 * active * batch / weight_bytes
    prefill_intensity = 2 * active * v["prefill_tokens"] / weight_bytes
    decode_tflops = _attainable_tflops(decode_intensity, v["peak_tflops"], v["bandwidth_tbs"])
    prefill_tflops = _attainable_tflops(prefill_intensity, v["peak_tflops"], v["bandwidth_tbs"])
    decode_step_s = max(weight_bytes / bw, 2 * active * batch / peak)
    prefill_s = max(weight_bytes / bw, 2 * active * v["prefill_tokens"] / peak)
    return {
        "weight_bytes": weight_bytes,
        "flops_per_token": 2 * active,
        "ridge_flops_per_byte": ridge,
        "decode_intensity": decode_intensity,
        "prefill_intensity": prefill_intensity,
        "decode_attainable_tflops": decode_tflops,
        "prefill_attainable_tflops": prefill_tflops,
        "decode_peak_fraction": decode_tflops / v["peak_tflops"],
        "prefill_peak_fraction": prefill_tflops / v["peak_tflops"],
        "decode_memory_bound": decode_intensity < ridge,
        "prefill_compute_bound": prefill_intensity >= ridge,
        "decode_step_s": decode_step_s,
        "decode_tokens_per_s": batch / decode_step_s,
        "prefill_pass_s": prefill_s,
        "ridge_gap": ridge / decode_intensity,
        "ridge_batch": ridge * weight_bytes / (2 * active),
    }


def explain(v, o) -> Explanation:
    batch = v["decode_batch"]
    ridge = o["ridge_flops_per_byte"]
    weight = bytes_decimal(o["weight_bytes"])
    per_token = si(o["flops_per_token"], "FLOPs")
    bw = bandwidth(v["bandwidth_tbs"] * 1e12)
    moe = shared.moe_note(v)
    per = "active parameter" if moe else "parameter"
    steps = [
        f"The ridge point is where reading a byte and doing the arithmetic on it take the same time: "
        f"{num(v['peak_tflops'])} TFLOP/s ÷ {num(v['bandwidth_tbs'])} TB/s = {num(ridge)} FLOP/byte. "
        f"Work with fewer FLOPs per byte waits on memory; work with more waits on the arithmetic units.",
    ]
    weights = (
        f"{num(v['params_b'])} billion parameters × {num(v['bytes_per_param'])} "
        f"{plural(v['bytes_per_param'], 'byte')} = {weight}"
    )
    if moe:
        steps.append(
            f"{moe}Each token's {per_token} come from the {num(v['active_params_b'])} billion active parameters, "
            f"while a step reads every expert's bytes, so each FLOP/byte below is "
            f"{num(v['active_params_b'])} ÷ {num(v['params_b'])} of a dense model's."
        )
    if batch == 1:
        steps.append(
            f"Decode makes one token per step at 2 FLOPs per {per}, and reads every weight to do it "
            f"({weights}): {per_token} ÷ {weight} = {num(o['decode_intensity'])} FLOP/byte."
        )
    else:
        steps.append(
            f"A decode step makes one token for each of {integer(batch)} users at 2 FLOPs per {per}, "
            f"sharing one read of the weights ({weights}): {integer(batch)} × {per_token} ÷ {weight} = "
            f"{num(o['decode_intensity'])} FLOP/byte."
        )
    side = "past the ridge" if o["prefill_compute_bound"] else "still short of the ridge"
    steps.append(
        f"Prefill pushes all {integer(v['prefill_tokens'])} prompt tokens through that same read: "
        f"{integer(v['prefill_tokens'])} × {per_token} ÷ {weight} = {num(o['prefill_intensity'])} FLOP/byte, "
        f"{side}, so it can run at {tflops(o['prefill_attainable_tflops'] * 1e12)} "
        f"({percent(o['prefill_peak_fraction'])} of peak)."
    )
    if o["decode_memory_bound"]:
        steps.append(
            f"On the roof, decode gets min({num(v['peak_tflops'])}, {num(o['decode_intensity'])} × "
            f"{num(v['bandwidth_tbs'])}) = {tflops(o['decode_attainable_tflops'] * 1e12)}, "
            f"{percent(o['decode_peak_fraction'])} of the peak. "
            + (
                f"Memory caps it at {bw} ÷ {weight} = {rate(o['decode_tokens_per_s'])}."
                if batch == 1
                else f"Memory caps each step at {weight} ÷ {bw} = {seconds(o['decode_step_s'])}, so "
                f"{integer(batch)} users make {integer(batch)} ÷ {seconds(o['decode_step_s'])} = "
                f"{rate(o['decode_tokens_per_s'])} in all."
            )
        )
        steps.append(
            f"Decode sits {num(ridge)} ÷ {num(o['decode_intensity'])} = about {times(o['ridge_gap'])} below the "
            f"ridge: only a batch of about {num(o['ridge_batch'])} users sharing each weight read would bring it "
            f"there."
        )
        conclusion = (
            f"Decode at {num(o['decode_intensity'])} FLOP/byte is memory-bound, about {times(o['ridge_gap'])} "
            f"below the {num(ridge)} FLOP/byte ridge; "
            + (
                f"prefill at {num(o['prefill_intensity'])} FLOP/byte is compute-bound."
                if o["prefill_compute_bound"]
                else f"even prefill at {num(o['prefill_intensity'])} FLOP/byte is memory-bound here."
            )
        )
    else:
        users = "one user's" if batch == 1 else f"{integer(batch)} users'"
        made = rate(o["decode_tokens_per_s"]) + ("" if batch == 1 else " in all")
        steps.append(
            f"On the roof, decode gets min({num(v['peak_tflops'])}, {num(o['decode_intensity'])} × "
            f"{num(v['bandwidth_tbs'])}) = {tflops(o['decode_attainable_tflops'] * 1e12)}, the full peak: "
            f"{users} arithmetic takes {seconds(o['decode_step_s'])} a step, longer than reading {weight} at {bw}, "
            f"so decode makes {made}, limited by compute, not memory."
        )
        ratio = times(1 / o["ridge_gap"])
        if o["ridge_batch"] >= 1:
            steps.append(
                f"Decode sits at {num(o['decode_intensity'])} ÷ {num(ridge)} = {ratio} the ridge intensity: "
                f"past a batch of about {num(o['ridge_batch'])} users, each extra user adds arithmetic to every "
                f"step, not throughput."
            )
            conclusion = (
                f"At a batch of {integer(batch)}, decode reaches {num(o['decode_intensity'])} FLOP/byte, past the "
                f"{num(ridge)} FLOP/byte ridge: batching is what moves decode from memory-bound to compute-bound."
            )
        else:
            steps.append(
                f"The ridge is so low on this chip that a single user's decode, at "
                f"{num(o['decode_intensity'] / batch)} FLOP/byte, is already "
                f"{times(o['decode_intensity'] / batch / ridge)} past it: bandwidth is never "
                f"the limit here."
            )
            conclusion = (
                f"With a ridge of only {num(ridge)} FLOP/byte, even decode is compute-bound: this chip has "
                f"bandwidth to spare and too little arithmetic."
            )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    peak, bw = v["peak_tflops"], v["bandwidth_tbs"]
    ridge = o["ridge_flops_per_byte"]
    marks = (o["decode_intensity"], o["prefill_intensity"], ridge)
    lo, hi = min(marks) / 10, max(marks) * 10
    x = np.unique(np.concatenate((fig.log_span(lo, hi, 63), [ridge])))
    roof = np.minimum(peak, x * bw)
    decode_label = f"decode: {num(o['decode_intensity'])} FLOP/byte, {num(o['decode_attainable_tflops'])} TFLOP/s"
    prefill_label = f"prefill: {num(o['prefill_intensity'])} FLOP/byte, {num(o['prefill_attainable_tflops'])} TFLOP/s"
    hover = "%{x:,.3~s} FLOP/byte → %{y:,.3~s} TFLOP/s"
    traces = [
        fig.line(x, roof, "roof: min(peak, intensity × bandwidth)", fig.BLUE, hover=hover),
        fig.points(
            [o["decode_intensity"]],
            [o["decode_attainable_tflops"]],
            "decode",
            fig.VERMILION,
            text=[decode_label],
            hover=hover,
        ),
        fig.points(
            [o["prefill_intensity"]],
            [o["prefill_attainable_tflops"]],
            "prefill",
            fig.GREEN,
            symbol="diamond",
            text=[prefill_label],
            hover=hover,
        ),
    ]
    traces[1]["textposition"] = "bottom right"  # below the rising roof, clear of the prefill label
    traces.append(fig.points([ridge], [peak], "ridge point", fig.GREY, symbol="x", size=9, hover=hover))
    shape, note = fig.vline(ridge, f"ridge {num(ridge)} FLOP/byte", fig.GREY, log=True)
    y_lo = min(float(roof.min()), o["decode_attainable_tflops"]) / 3
    return [
        fig.figure(
            "Roofline: attainable compute against arithmetic intensity",
            traces,
            fig.axis("arithmetic intensity (FLOP per byte read)", log=True),
            fig.axis("attainable TFLOP/s", log=True, range_=[y_lo, peak * 4]),
            shapes=[shape],
            annotations=[note],
        )
    ]


def overlay(v, o, m: Measured) -> Overlay:
    """Measured GEMM points across intensity and the measured copy bandwidth as a second, lower roof."""
    peak = m.peak_tflops
    bf16, fp8 = m.gemms("bf16"), m.gemms("fp8")
    best16 = max(e["TFLOPs"] for e in bf16)
    best8 = max(e["TFLOPs"] for e in fp8)
    ones = [e["TFLOPs"] for e in bf16 if e["M"] == 1]
    steps = [
        f"Measured on one {m.device}: copying memory reached {bandwidth(m.copy_tbs * 1e12)}, "
        f"{percent(m.copy_tbs / m.bandwidth_tbs)} of the {bandwidth(m.bandwidth_tbs * 1e12)} datasheet bandwidth; "
        f"the best bf16 matrix multiply reached {tflops(best16 * 1e12)}, {percent(best16 / peak)} of the "
        f"{tflops(peak * 1e12)} datasheet peak, and fp8 {tflops(best8 * 1e12)}, above the 16-bit roof because fp8 "
        f"tensor cores have twice its peak."
    ]
    if ones:
        steps.append(
            f"At one token per weight read (M = 1, about 1 FLOP/byte: decode at batch 1) the measured bf16 "
            f"multiplies ran at {num(min(ones))}–{num(max(ones))} TFLOP/s, against "
            f"{num(min(peak, m.bandwidth_tbs))} on the datasheet roof and {num(min(peak, m.copy_tbs))} on the "
            f"measured one."
        )
    hover = "%{x:,.3~s} FLOP/byte → %{y:,.3~s} TFLOP/s"
    x16, y16 = series(bf16, "intensity", "TFLOPs")
    x8, y8 = series(fp8, "intensity", "TFLOPs")
    knee = peak / m.copy_tbs
    xs = fig.log_span(min(*x16, *x8, o["decode_intensity"]) / 10, knee, 32)
    traces = [
        fig.line(
            xs,
            xs * m.copy_tbs,
            f"measured copy bandwidth ({m.device}): {num(m.copy_tbs)} TB/s",
            fig.SKY,
            dash="dash",
            width=2,
            hover=hover,
        ),
        fig.points(x16, y16, f"measured bf16 GEMM ({m.device})", fig.ORANGE, "circle", 8, hover=hover),
        fig.points(x8, y8, f"measured fp8 GEMM ({m.device})", fig.PURPLE, "square", 8, hover=hover),
    ]
    return Overlay(steps, {0: traces})


CALCULATOR = Calculator(
    slug="roofline",
    title="Roofline: why decode is memory-bound and prefill compute-bound",
    summary="Where decode and prefill sit against the chip's ridge point, and how far decode falls below it.",
    order=80,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    rules=shared.active_rule,
    overlay=overlay,
    headlines=(
        Headline("ridge_flops_per_byte", "Ridge point (FLOP/byte)", num),
        Headline("decode_tokens_per_s", "Decode ceiling", rate),
        Headline("ridge_gap", "Decode below the ridge", times),
    ),
)
