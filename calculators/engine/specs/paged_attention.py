"""paged-attention: worst-case KV slabs per request against small blocks handed out on demand."""

from __future__ import annotations

import math

from .. import figures as fig
from .. import shared_params as shared
from ..spec import Calculator, Explanation, Headline, Param
from ..units import bytes_binary, count, integer, percent, times

UNITS = ((2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB"), (1, "bytes"))

PARAMS = (
    Param(
        "max_context",
        "Longest context allowed",
        "tokens",
        4096,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_min=128,
        slider_max=1_048_576,
        help="What a worst-case reservation sets aside per request.",
    ),
    Param(
        "mean_context",
        "Context actually reached (mean)",
        "tokens",
        1200,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_min=16,
        slider_max=1_048_576,
        help="How long a typical conversation really gets.",
    ),
    shared.kv_bytes_per_token(minimum=1),
    Param("requests", "Requests in flight", "requests", 10, 1, 1_000_000, integer=True, log=True, slider_max=10_000),
    Param(
        "block_tokens",
        "Tokens per KV block",
        "tokens",
        16,
        1,
        65_536,
        integer=True,
        log=True,
        slider_max=1024,
        help="The page size of the paged cache.",
    ),
)


def compute(v) -> dict:
    max_ctx, mean_ctx, block = v["max_context"], v["mean_context"], v["block_tokens"]
    # Bytes as floats: 10⁷ tokens × 10⁹ bytes × 10⁶ requests is past what a JSON integer (64-bit) holds.
    per_token, requests = float(v["kv_bytes_per_token"]), float(v["requests"])
    reserved = max_ctx * per_token
    used = mean_ctx * per_token
    blocks = -(-mean_ctx // block)  # ceil, exact in integers
    paged = blocks * block * per_token
    reserved_total = requests * reserved
    return {
        "reserved_bytes_per_request": reserved,
        "reserved_bytes_total": reserved_total,
        "used_bytes_per_request": used,
        "used_bytes_total": requests * used,
        "utilization": mean_ctx / max_ctx,
        "idle_bytes_per_request": reserved - used,
        "idle_bytes_total": requests * (reserved - used),
        "max_tail_waste_bytes": (block - 1) * per_token,
        "blocks_per_request": blocks,
        "paged_bytes_per_request": paged,
        "paged_bytes_total": requests * paged,
        "tail_waste_bytes": paged - used,
        "paged_utilization": used / paged,
        "capacity_gain": reserved / paged,
        "requests_in_same_memory": math.floor(reserved_total / paged),
    }


def rules(v) -> dict[str, list[str]]:
    if v["mean_context"] > v["max_context"]:
        return {
            "mean_context": [
                f"The mean context ({integer(v['mean_context'])} tokens) cannot exceed the longest context allowed "
                f"({integer(v['max_context'])} tokens): lower it or raise the limit."
            ]
        }
    return {}


def explain(v, o) -> Explanation:
    per_token, block = v["kv_bytes_per_token"], v["block_tokens"]
    n = v["requests"]
    kv = bytes_binary(per_token)
    steps = [
        f"Reserving for the worst case sets aside the whole window for every request, used or not: "
        f"{integer(v['max_context'])} tokens × {kv} = {bytes_binary(o['reserved_bytes_per_request'])} per request.",
        f"For {count(n, 'request')} that is {integer(n)} × {bytes_binary(o['reserved_bytes_per_request'])} = "
        f"{bytes_binary(o['reserved_bytes_total'])} of KV memory spoken for.",
        f"A typical conversation only reaches {count(v['mean_context'], 'token')}: {integer(v['mean_context'])} × "
        f"{kv} = {bytes_binary(o['used_bytes_per_request'])} actually holds keys and values.",
    ]
    if o["utilization"] < 1:
        steps.append(
            f"Utilisation is {integer(v['mean_context'])} ÷ {integer(v['max_context'])} = "
            f"{percent(o['utilization'])}: {percent(1 - o['utilization'])} of each reservation sits idle, "
            f"{bytes_binary(o['idle_bytes_per_request'])} per request and {bytes_binary(o['idle_bytes_total'])} "
            f"{'in all' if n == 1 else 'across all ' + count(n, 'request')}."
        )
    else:
        steps.append("Here every request fills its whole window, so the reservation wastes nothing.")
    if block > 1:
        tail = o["tail_waste_bytes"]
        at = f"at {count(v['mean_context'], 'token')} the last block"
        tail_text = (
            f"{at} happens to be exactly full"
            if tail == 0
            else f"{at} has {count(round(tail / per_token), 'empty slot')} ({bytes_binary(tail)})"
        )
        steps.append(
            f"Paged attention hands out {integer(block)}-token blocks as a sequence grows: "
            f"a {integer(v['mean_context'])}-token context takes {integer(o['blocks_per_request'])} "
            f"{'block' if o['blocks_per_request'] == 1 else 'blocks'} = "
            f"{bytes_binary(o['paged_bytes_per_request'])}. Only the last block can be partly empty, wasting at most "
            f"{integer(block - 1)} × {kv} = {bytes_binary(o['max_tail_waste_bytes'])}; {tail_text}."
        )
    else:
        steps.append(
            f"With one-token blocks paged attention allocates exactly what is used: "
            f"{bytes_binary(o['paged_bytes_per_request'])} per request, no tail waste at all."
        )
    gain = o["capacity_gain"]
    if gain > 1:
        steps.append(
            f"Each request now costs {bytes_binary(o['paged_bytes_per_request'])} instead of "
            f"{bytes_binary(o['reserved_bytes_per_request'])}: {bytes_binary(o['reserved_bytes_per_request'])} ÷ "
            f"{bytes_binary(o['paged_bytes_per_request'])} = {times(gain)}, so the "
            f"{bytes_binary(o['reserved_bytes_total'])} that held {count(n, 'request')} now holds "
            f"{count(o['requests_in_same_memory'], 'request')}."
        )
        conclusion = (
            f"Growing the cache block by block cuts waste from {percent(1 - o['utilization'])} of each reservation "
            f"to at most one part-filled block, so {times(gain)} as many requests fit in the same memory."
        )
    elif gain == 1:
        steps.append("Paged and reserved requests cost the same here: paging only pays when requests stop short.")
        conclusion = "Paging buys nothing when every request uses its whole window; it pays when they stop short."
    else:
        steps.append(
            f"The block ({integer(block)} tokens) is so large that rounding up to whole blocks costs more than the "
            f"reservation: {bytes_binary(o['paged_bytes_per_request'])} against "
            f"{bytes_binary(o['reserved_bytes_per_request'])}, {percent(gain)} as many requests."
        )
        conclusion = "Blocks must be small next to the context: here they waste more than the slab they replace."
    return Explanation(steps, conclusion)


def _unit(size: float) -> tuple[float, str]:
    for scale, name in UNITS:
        if size >= scale:
            return scale, name
    return 1, "bytes"


def charts(v, o) -> list[dict]:
    reserved, used, paged = o["reserved_bytes_per_request"], o["used_bytes_per_request"], o["paged_bytes_per_request"]
    scale, unit = _unit(max(reserved, paged))
    schemes = ["reserved for the worst case", f"paged, {integer(v['block_tokens'])}-token blocks"]
    traces = [
        fig.bars(
            schemes,
            [used / scale, used / scale],
            "holding keys and values",
            fig.BLUE,
            hover=f"%{{y:.4g}} {unit} in use",
        ),
        fig.bars(
            schemes,
            [(reserved - used) / scale, 0],
            "reserved, never filled",
            "#d1d5db",
            hover=f"%{{y:.4g}} {unit} idle",
        ),
        fig.bars(
            schemes,
            [0, o["tail_waste_bytes"] / scale],
            "empty slots in the last block",
            fig.ORANGE,
            hover=f"%{{y:.4g}} {unit} unused tail",
        ),
    ]
    totals = [reserved, paged]
    notes = [
        {
            "x": s,
            "y": t / scale,
            "xref": "x",
            "yref": "y",
            "text": f"{bytes_binary(t)} ({percent(used / t)} used)",
            "showarrow": False,
            "yanchor": "bottom",
            "font": {"size": 13},
        }
        for s, t in zip(schemes, totals, strict=True)
    ]
    return [
        fig.figure(
            f"KV memory per request at {integer(v['mean_context'])} of {integer(v['max_context'])} tokens",
            traces,
            fig.axis("", type="category"),
            fig.axis(f"KV cache per request ({unit})", range_=[0, max(totals) / scale * 1.15]),
            annotations=notes,
            barmode="stack",
        )
    ]


CALCULATOR = Calculator(
    slug="paged-attention",
    title="Paged attention: worst-case reservations vs KV blocks on demand",
    summary="How much KV memory worst-case reservations leave idle, and how many more requests "
    "fit when the cache grows in small blocks.",
    order=50,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    rules=rules,
    headlines=(
        Headline("reserved_bytes_per_request", "Reserved per request", bytes_binary),
        Headline("utilization", "Reservation actually used", percent),
        Headline("capacity_gain", "Requests that fit, paged vs reserved", times),
    ),
)
