"""prefill-decode: from arrival to first token, then token by token."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from .. import shared_params as shared
from ..measured import LAYERS, Measured
from ..spec import Calculator, Explanation, Headline, Overlay, Param
from ..units import bandwidth, bytes_decimal, integer, num, percent, rate, sci, seconds, si, tflops

PARAMS = (
    shared.params_b(70),
    shared.active_params_b(),
    shared.bytes_per_param(2),
    Param("prompt_tokens", "Prompt length", "tokens", 2000, 1, 2_000_000, integer=True, log=True, slider_max=200_000),
    Param("output_tokens", "Reply length", "tokens", 500, 1, 1_000_000, integer=True, log=True, slider_max=100_000),
    shared.peak_tflops(989),
    shared.bandwidth_tbs(3.35),
)


def compute(v) -> dict:
    params = v["params_b"] * 1e9
    peak = v["peak_tflops"] * 1e12
    bw = v["bandwidth_tbs"] * 1e12
    flops_per_token = 2 * shared.active_b(v) * 1e9
    prefill_flops = v["prompt_tokens"] * flops_per_token
    prefill_s = prefill_flops / peak
    weight_bytes = params * v["bytes_per_param"]
    decode_tokens_per_s = bw / weight_bytes
    inter_token_s = 1 / decode_tokens_per_s
    decode_s = (v["output_tokens"] - 1) * inter_token_s
    return {
        "flops_per_token": flops_per_token,
        "prefill_flops": prefill_flops,
        "prefill_s": prefill_s,
        "ttft_s": prefill_s,
        "weight_bytes": weight_bytes,
        "decode_tokens_per_s": decode_tokens_per_s,
        "inter_token_s": inter_token_s,
        "decode_s": decode_s,
        "response_s": prefill_s + decode_s,
        "prefill_share": prefill_s / (prefill_s + decode_s),
    }


def explain(v, o) -> Explanation:
    rest = v["output_tokens"] - 1
    moe = shared.moe_note(v)
    per = "active parameter" if moe else "parameter"
    steps = [
        f"{moe}A forward pass costs about 2 FLOPs per {per} per token: 2 × {num(shared.active_b(v))} billion "
        f"= {si(o['flops_per_token'], 'FLOPs')} per token.",
        f"Prefill runs all {integer(v['prompt_tokens'])} prompt tokens through the model in one pass: "
        f"{integer(v['prompt_tokens'])} × {si(o['flops_per_token'], 'FLOPs')} = {sci(o['prefill_flops'])} FLOPs, "
        f"writing one KV-cache entry per token.",
        f"At {tflops(v['peak_tflops'] * 1e12)} that pass takes {sci(o['prefill_flops'])} FLOPs ÷ "
        f"{num(v['peak_tflops'])} × 10¹² FLOP/s = {seconds(o['prefill_s'])}: the time to first token, "
        f"before any queueing.",
        f"The weights take {num(v['params_b'])} billion × {num(v['bytes_per_param'])} bytes = "
        f"{bytes_decimal(o['weight_bytes'])}, and every decode step reads all of them.",
        f"Decode: {bandwidth(v['bandwidth_tbs'] * 1e12)} ÷ {bytes_decimal(o['weight_bytes'])} = "
        f"{rate(o['decode_tokens_per_s'])}, one token every {seconds(o['inter_token_s'])}.",
    ]
    if moe:
        steps[-1] += (
            f" Reading every expert is right once a batch's tokens are routed across all of them; one user alone "
            f"reads only its routed experts (about {num(v['active_params_b'])} billion parameters), so it can "
            f"decode up to {num(v['params_b'] / v['active_params_b'])}× faster than this."
        )
    if rest:
        steps.append(
            f"The other {integer(rest)} tokens of the reply take {integer(rest)} × {seconds(o['inter_token_s'])} "
            f"= {seconds(o['decode_s'])}; the whole reply takes {seconds(o['prefill_s'])} + "
            f"{seconds(o['decode_s'])} = {seconds(o['response_s'])}."
        )
    else:
        steps.append(f"A one-token reply is done when prefill is: {seconds(o['response_s'])}.")
    conclusion = (
        f"A compute-bound prompt pass of {seconds(o['prefill_s'])}, then memory-bound streaming at "
        f"{rate(o['decode_tokens_per_s'])}."
    )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    n = v["output_tokens"]
    t_end = o["response_s"]
    tokens = np.unique(np.round(np.geomspace(1, n, 48))) if n > 1 else np.array([1.0])
    times = o["prefill_s"] + (tokens - 1) * o["inter_token_s"]
    x = np.concatenate(([0.0, o["prefill_s"]], times))
    y = np.concatenate(([0.0, 0.0], tokens))
    shape, note = fig.vline(o["prefill_s"], f"first token at {seconds(o['prefill_s'])}", fig.VERMILION)
    traces = [
        fig.line(x, y, "tokens delivered", fig.BLUE, hover="%{x:.3s} s → %{y:,.0f} tokens"),
        fig.points([o["prefill_s"]], [1], "first token", fig.VERMILION),
    ]
    return [
        fig.figure(
            "Tokens delivered over time: prefill, then decode",
            traces,
            fig.axis("time since arrival (s)", range_=[0, t_end * 1.04]),
            fig.axis("tokens in the reply"),
            shapes=[shape],
            annotations=[note],
        )
    ]


def overlay(v, o, m: Measured) -> Overlay:
    """Decode at batch 1 and a 2,048-token prefill through the measured 70B-shaped layer, against theory."""
    steps = []
    one = m.layer_at("bf16", 1)
    if one is not None:
        layer_bytes = one["weight_bytes_per_layer"]
        predicted = m.predicted_tokens_per_s("bf16", 1, layer_bytes)
        measured = one["tokens_per_s_80_layers"]
        steps.append(
            f"Measured on one {m.device}: {rate(measured)} at batch 1 against {rate(predicted)} predicted "
            f"({percent(measured / predicted)}). The prediction reads the same bytes the measurement moved: "
            f"{LAYERS} × {integer(layer_bytes)} bytes of bf16 Llama-3-70B-shaped layer weights "
            f"({bytes_decimal(LAYERS * layer_bytes)}, no attention or embeddings) at the "
            f"{bandwidth(m.bandwidth_tbs * 1e12)} datasheet bandwidth."
        )
        # When this page's model is the measured shape (within 10 % of its bytes), compare with the page's own figure.
        if abs(o["weight_bytes"] - LAYERS * layer_bytes) <= 0.1 * LAYERS * layer_bytes and o["decode_tokens_per_s"]:
            steps.append(
                f"Against this page's whole-model figure of {rate(o['decode_tokens_per_s'])} "
                f"({bytes_decimal(o['weight_bytes'])} of weights), the chip delivered "
                f"{percent(measured / o['decode_tokens_per_s'])} of the theory."
            )
    prefill = m.layer_at("bf16", 2048)
    if prefill is not None:
        measured_s = LAYERS * prefill["layer_s"]
        predicted_s = LAYERS * float(m.predicted_layer_s("bf16", 2048, prefill["weight_bytes_per_layer"]))
        steps.append(
            f"A 2,048-token prefill through those {LAYERS} layers measured {seconds(measured_s)} against "
            f"{seconds(predicted_s)} predicted at the {tflops(m.peak_tflops * 1e12)} datasheet peak: the matmuls "
            f"ran at {percent(predicted_s / measured_s)} of it."
        )
    return Overlay(steps, {})


CALCULATOR = Calculator(
    slug="prefill-decode",
    title="Prefill and decode: arrival to first token, then token by token",
    summary="How long the prompt pass takes, how fast tokens stream after it, and when the reply ends.",
    order=10,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    rules=shared.active_rule,
    overlay=overlay,
    headlines=(
        Headline("prefill_s", "Time to first token", seconds),
        Headline("decode_tokens_per_s", "Decode speed", rate),
        Headline("response_s", "Whole reply", seconds),
    ),
)
