"""prefix-cache: when caching a shared prompt prefix pays, and when it cannot."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from ..spec import Calculator, Explanation, Headline, Param
from ..units import integer, money, num, percent

MILLION = 1e6

PARAMS = (
    Param(
        "requests_per_day",
        "Requests per day",
        "requests",
        20_000,
        0,
        1e10,
        integer=True,
        log=True,
        slider_min=100,
        slider_max=100_000_000,
    ),
    Param(
        "shared_tokens",
        "Shared prefix length",
        "tokens",
        1500,
        0,
        10_000_000,
        integer=True,
        log=True,
        slider_min=10,
        slider_max=200_000,
        help="Leading tokens that are identical across requests: system prompt, tool definitions, a shared document.",
    ),
    Param(
        "price_per_mtok",
        "Price of a prompt token",
        "$ per million tokens",
        3.00,
        0,
        10_000,
        step=0.01,
        log=True,
        slider_min=0.01,
        slider_max=100,
    ),
    Param(
        "cached_price_per_mtok",
        "Price of a cached prompt token",
        "$ per million tokens",
        0.30,
        0,
        10_000,
        step=0.01,
        log=True,
        slider_min=0.01,
        slider_max=100,
        help="What a prefix token served from the cache costs; often a tenth of the full price.",
    ),
    Param(
        "hit_rate",
        "Prefix hit rate",
        "fraction",
        0.8,
        0,
        1,
        step=0.01,
        help="Share of the shared-prefix tokens found in the cache. Near 0 when every request starts "
        "differently, such as a per-user rolling history.",
    ),
)


def compute(v) -> dict:
    tokens = v["requests_per_day"] * v["shared_tokens"]
    hit = v["hit_rate"]
    price, cached = v["price_per_mtok"], v["cached_price_per_mtok"]
    without = tokens / MILLION * price
    hits = tokens * hit / MILLION * cached
    misses = tokens * (1 - hit) / MILLION * price
    with_cache = hits + misses
    saving = without - with_cache
    costs_without_cache = without > 0
    return {
        "prompt_tokens_per_day": tokens,
        "hit_tokens_per_day": tokens * hit,
        "miss_tokens_per_day": tokens * (1 - hit),
        "cost_without_cache": without,
        "cost_hits": hits,
        "cost_misses": misses,
        "cost_with_cache": with_cache,
        "saving_per_day": saving,
        "effective_price_per_mtok": hit * cached + (1 - hit) * price,
        # The saving as a share of the uncached bill does not exist when that bill is $0.
        "costs_without_cache": costs_without_cache,
        "saving_share": saving / without if costs_without_cache else None,
    }


def _per_m(price: float) -> str:
    return f"{money(price)} per million"


def explain(v, o) -> Explanation:
    tokens, hit = o["prompt_tokens_per_day"], v["hit_rate"]
    price, cached = v["price_per_mtok"], v["cached_price_per_mtok"]
    if tokens == 0:
        why = "no requests" if v["requests_per_day"] == 0 else "no shared prefix"
        steps = [
            f"{integer(v['requests_per_day'])} requests a day × {integer(v['shared_tokens'])} shared tokens = "
            f"0 prompt tokens: with {why} there is nothing to cache.",
            "The bill for the prefix is $0.00 with or without a cache; any cache only adds memory and lookups.",
        ]
        conclusion = "Nothing is shared, so a prefix cache has nothing to save."
        return Explanation(steps, conclusion)

    steps = [
        f"Every request starts with the same {integer(v['shared_tokens'])} tokens: "
        f"{integer(v['requests_per_day'])} requests × {integer(v['shared_tokens'])} tokens = "
        f"{num(tokens)} prompt tokens a day.",
        f"Without a cache all of them pay the full price: {num(tokens)} ÷ 1 million × {money(price)} = "
        f"{money(o['cost_without_cache'])} a day.",
    ]
    if hit > 0:
        steps.append(
            f"With the cache, {percent(hit)} of them are hits, {num(o['hit_tokens_per_day'])} tokens at "
            f"{_per_m(cached)}: {money(o['cost_hits'])}."
        )
    else:
        steps.append("With a hit rate of 0 no token is ever found in the cache: $0.00 of cheap hits.")
    if hit < 1:
        who = f"The other {percent(1 - hit)} miss" if hit > 0 else "All of them miss"
        steps.append(
            f"{who} and pay full price: {num(o['miss_tokens_per_day'])} × {_per_m(price)} = {money(o['cost_misses'])}."
        )
    else:
        steps.append("Every token hits, so nothing pays the full price: $0.00 of misses.")

    saving = o["saving_per_day"]
    total = (
        f"Together {money(o['cost_hits'])} + {money(o['cost_misses'])} = {money(o['cost_with_cache'])} a day "
        f"(a blended {_per_m(o['effective_price_per_mtok'])})"
    )
    if saving > 0:
        steps.append(
            f"{total}, which saves {money(o['cost_without_cache'])} − {money(o['cost_with_cache'])} = "
            f"{money(saving)} a day ({percent(o['saving_share'])} of the bill)."
        )
    elif saving == 0:
        steps.append(f"{total}: exactly what it costs without the cache, so it saves nothing.")
    else:
        steps.append(
            f"{total}: {money(-saving)} a day more than without it, because a cached token here "
            f"costs more than a fresh one."
        )

    gap = price - cached
    if gap > 0:
        per_point = tokens * 0.01 * gap / MILLION
        advice = (
            f"Each percentage point of hit rate is worth {num(tokens)} × 1 % × ({money(price)} − {money(cached)}) "
            f"per million = {money(per_point)} a day. "
        )
        if hit < 0.1:
            advice += (
                "A hit rate this low is what a prompt that differs from its first token gives, such as "
                "a rolling per-user history: the cache pays its overhead and saves next to nothing. "
                "Put the shared text first and the per-user part after it."
            )
        else:
            advice += (
                "That only holds while requests really begin with identical text: put a per-user "
                "rolling history first and the hit rate falls to near zero."
            )
        steps.append(advice)

    if saving > 0:
        conclusion = (
            f"The same {num(tokens)} tokens cost {money(o['cost_with_cache'])} a day instead of "
            f"{money(o['cost_without_cache'])}: the share of tokens that hit, not how many you send, sets the bill."
        )
    else:
        conclusion = (
            f"{num(tokens)} tokens a day and no saving: a prefix cache pays only when many tokens hit "
            f"and a hit is cheaper than a miss."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    tokens = o["prompt_tokens_per_day"]
    price, cached = v["price_per_mtok"], v["cached_price_per_mtok"]
    rates = np.linspace(0, 1, 41)
    without = np.full_like(rates, o["cost_without_cache"])
    with_cache = tokens / MILLION * (rates * cached + (1 - rates) * price)
    hover = "%{x:.0%} hits → $%{y:,.2f} a day"
    traces = [
        fig.line(rates, without, "without the cache", fig.VERMILION, dash="dash", hover=hover),
        fig.line(rates, with_cache, "with the cache (gap shaded)", fig.BLUE, hover=hover, fill="tonexty"),
        fig.points(
            [v["hit_rate"]],
            [o["cost_with_cache"]],
            "this setting",
            text=[f"{money(o['cost_with_cache'])} a day"],
            hover=hover,
        ),
    ]
    top = max(o["cost_without_cache"], float(with_cache.max()))
    shape, note = fig.vline(v["hit_rate"], f"{percent(v['hit_rate'])} hits", fig.GREY)
    return [
        fig.figure(
            "Daily cost of the shared prefix against the hit rate",
            traces,
            fig.axis("prefix hit rate", range_=[0, 1], tickformat=".0%"),
            fig.axis("cost per day ($)", range_=[0, top * 1.12 if top > 0 else 1], tickprefix="$"),
            shapes=[shape],
            annotations=[note],
        )
    ]


CALCULATOR = Calculator(
    slug="prefix-cache",
    title="Prefix cache: what a shared prompt prefix costs with and without a cache",
    summary="The daily bill for a shared prompt prefix at full price, and what a prefix cache saves at a given "
    "hit rate.",
    order=60,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("cost_without_cache", "Without a cache, per day", money),
        Headline("cost_with_cache", "With the cache, per day", money),
        Headline("saving_per_day", "Saving per day", money),
    ),
)
