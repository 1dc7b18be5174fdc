"""kv-capacity: what limits users per GPU (and what an 8-bit KV cache buys)."""

from __future__ import annotations

import math

from .. import figures as fig
from ..spec import Calculator, Explanation, Headline, Param
from ..units import bytes_binary, count, fraction_of_count, integer, num, plural

GIB = 2**30
PRECISIONS = ((2.0, "16-bit KV", fig.BLUE), (1.0, "8-bit KV", fig.ORANGE), (0.5, "4-bit KV", fig.GREEN))

PARAMS = (
    Param("layers", "Layers", "layers", 40, 1, 1024, integer=True, slider_max=160),
    Param(
        "kv_heads",
        "KV heads",
        "heads",
        8,
        1,
        1024,
        integer=True,
        slider_max=128,
        help="Key/value heads, not attention heads: grouped-query attention shares each KV head.",
    ),
    Param("head_dim", "Head dimension", "dims", 128, 1, 4096, integer=True, slider_min=16, slider_max=512),
    Param(
        "kv_bytes",
        "Bytes per cached element",
        "bytes",
        2,
        0.5,
        4,
        step=0.5,
        help="2 = 16-bit, 1 = 8-bit, 0.5 = 4-bit KV cache.",
    ),
    Param(
        "context_tokens",
        "Context per user",
        "tokens",
        4096,
        1,
        10_000_000,
        integer=True,
        log=True,
        slider_min=128,
        slider_max=1_048_576,
    ),
    Param(
        "free_gib",
        "Memory free for the cache",
        "GiB",
        9,
        0.01,
        100_000,
        step=0.01,
        log=True,
        slider_min=0.5,
        slider_max=2048,
        help="What is left after the weights and activations.",
    ),
)


def kv_per_token(layers: float, kv_heads: float, head_dim: float, kv_bytes: float) -> float:
    """Keys and values (the 2) for every layer, KV head and dimension."""
    return 2 * layers * kv_heads * head_dim * kv_bytes


def compute(v) -> dict:
    per_token = kv_per_token(v["layers"], v["kv_heads"], v["head_dim"], v["kv_bytes"])
    per_user = per_token * v["context_tokens"]
    free_bytes = v["free_gib"] * GIB
    users_exact = free_bytes / per_user
    return {
        "kv_bytes_per_token": per_token,
        "kv_bytes_per_user": per_user,
        "users_exact": users_exact,
        "users": math.floor(users_exact),
        "tokens_in_cache": math.floor(free_bytes / per_token),
        "free_bytes": free_bytes,
    }


def _precision(kv_bytes: float) -> str:
    named = {2.0: "16-bit", 1.0: "8-bit", 0.5: "4-bit", 4.0: "32-bit"}
    return named.get(float(kv_bytes), f"{num(kv_bytes * 8)}-bit")


def explain(v, o) -> Explanation:
    per_token, per_user = o["kv_bytes_per_token"], o["kv_bytes_per_user"]
    steps = [
        f"Each token keeps a key and a value in every layer: 2 × {integer(v['layers'])} layers × "
        f"{integer(v['kv_heads'])} KV heads × {integer(v['head_dim'])} dims × {num(v['kv_bytes'])} bytes "
        f"= {integer(per_token) if per_token == int(per_token) else num(per_token)} bytes "
        f"= {bytes_binary(per_token)} per token ({_precision(v['kv_bytes'])} cache). Count KV heads, not "
        f"attention heads: with grouped-query attention several query heads share each KV head, which is what "
        f"keeps this figure small.",
        f"One user at {integer(v['context_tokens'])} tokens of context holds "
        f"{integer(v['context_tokens'])} × {bytes_binary(per_token)} = {bytes_binary(per_user)}.",
        f"{num(v['free_gib'])} GiB free after the weights ÷ {num(per_user / GIB)} GiB per user "
        f"= {fraction_of_count(o['users_exact'])} users.",
        f"Round down: {count(o['users'], 'user')} {plural(o['users'], 'fits', 'fit')} at this context length. "
        f"Put another way, the cache holds "
        f"{integer(o['tokens_in_cache'])} tokens in flight, however they are shared out between users.",
    ]
    if v["kv_bytes"] > 0.5:
        half = o["users_exact"] * 2
        steps.append(
            f"Halve the bytes per element ({_precision(v['kv_bytes'] / 2)} KV) and the same memory holds "
            f"{num(half)} users: from about {integer(round(o['users_exact']))} to about {integer(round(half))}."
        )
    conclusion = (
        f"{count(o['users'], 'user')} at {integer(v['context_tokens'])} tokens each: cache memory, "
        f"not compute, sets how many users one GPU serves."
    )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    ctx = v["context_tokens"]
    lo, hi = max(1.0, ctx / 64), min(10_000_000.0, max(ctx * 64, 64.0))
    contexts = fig.log_span(lo, hi, 48)
    per_token_elems = 2 * v["layers"] * v["kv_heads"] * v["head_dim"]
    traces = []
    widths = list(PRECISIONS)
    if float(v["kv_bytes"]) not in {w for w, _, _ in PRECISIONS}:
        widths.append((float(v["kv_bytes"]), f"{_precision(v['kv_bytes'])} KV (yours)", fig.PURPLE))
    for width, name, colour in widths:
        users = o["free_bytes"] / (per_token_elems * width * contexts)
        traces.append(fig.line(contexts, users, name, colour, hover="%{x:,.0f} tokens → %{y:,.1f} users"))
    traces.append(
        fig.points(
            [ctx],
            [o["users_exact"]],
            "this setting",
            text=[f"{integer(o['users'])} users"],
            hover="%{x:,.0f} tokens → %{y:,.1f} users",
        )
    )
    return [
        fig.figure(
            "Users per GPU against context length",
            traces,
            fig.axis("context per user (tokens)", log=True),
            fig.axis("users that fit in the cache", log=True),
        )
    ]


CALCULATOR = Calculator(
    slug="kv-capacity",
    title="KV cache capacity: users per GPU",
    summary="How many users fit in the memory left after the weights, and what a smaller KV cache buys.",
    order=20,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("kv_bytes_per_token", "KV cache per token", bytes_binary),
        Headline("kv_bytes_per_user", "Per user", bytes_binary),
        Headline("users", "Users that fit", integer),
    ),
)
