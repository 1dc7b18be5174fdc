"""speculative-decoding: a draft model guesses, the target model checks; faster decode, the same output."""

from __future__ import annotations

import numpy as np

from .. import figures as fig
from ..rounding import tidy
from ..spec import Calculator, Explanation, Headline, Param
from ..units import integer, num, rate, times

RATES = (0.5, 0.6, 0.7, 0.8, 0.9)
COLOURS = (fig.SKY, fig.GREEN, fig.BLUE, fig.ORANGE, fig.VERMILION)
MAX_DRAFT = 64
_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")

PARAMS = (
    Param(
        "acceptance_rate",
        "Acceptance rate",
        "fraction",
        0.7,
        0,
        0.99,
        step=0.01,
        help="Chance the target model accepts a drafted token (given the ones before it were accepted).",
    ),
    Param(
        "draft_tokens",
        "Drafted tokens per pass",
        "tokens",
        3,
        1,
        MAX_DRAFT,
        integer=True,
        slider_max=16,
        help="How many tokens the draft model proposes before the target model checks them.",
    ),
    Param(
        "baseline_tokens_per_s",
        "Plain decode speed",
        "tokens/s",
        24,
        0.1,
        100_000,
        step=0.1,
        log=True,
        slider_min=1,
        slider_max=1000,
        help="The target model decoding on its own.",
    ),
    Param(
        "draft_cost_ratio",
        "Draft step cost",
        "× a target step",
        0.2,
        0,
        1,
        step=0.01,
        help="Time of one draft-model step over one target-model step.",
    ),
)


def tokens_per_pass(a, k):
    """Expected tokens per target pass: 1 + a + a² + … + a^k (a ≤ 0.99, so 1 − a is never 0)."""
    return (1 - np.power(a, np.asarray(k, dtype=float) + 1)) / (1 - a)


def compute(v) -> dict:
    a, k, r = v["acceptance_rate"], v["draft_tokens"], v["draft_cost_ratio"]
    base = v["baseline_tokens_per_s"]
    expected = float(tokens_per_pass(a, k))
    round_cost = k * r + 1
    speedup = expected / round_cost
    ks = np.arange(1, MAX_DRAFT + 1)
    speedups = tokens_per_pass(a, ks) / (ks * r + 1)
    best = int(np.argmax(np.round(speedups, 12)))  # the shortest draft among equals
    return {
        "expected_tokens_per_pass": expected,
        "accepted_tokens_per_pass": expected - 1,
        "ideal_tokens_per_s": base * expected,
        "round_cost_target_steps": round_cost,
        "speedup": speedup,
        "tokens_per_s": base * speedup,
        "faster": speedup > 1,
        "max_tokens_per_pass": 1 / (1 - a),
        "best_draft_tokens": int(ks[best]),
        "best_speedup": float(speedups[best]),
    }


def _power(a: float, i: int) -> str:
    return num(a**i)


def _sum_terms(a: float, k: int) -> str:
    if k <= 4:
        return " + ".join(["1"] + [_power(a, i) for i in range(1, k + 1)])
    return f"1 + {_power(a, 1)} + {_power(a, 2)} + … + {num(a)}{str(k).translate(_SUPERSCRIPT)}"


def explain(v, o) -> Explanation:
    a, k, r = v["acceptance_rate"], v["draft_tokens"], v["draft_cost_ratio"]
    base = v["baseline_tokens_per_s"]
    expected, speedup = tidy(o["expected_tokens_per_pass"]), tidy(o["speedup"])
    drafted = f"{integer(k)} {'token' if k == 1 else 'tokens'}"
    them = "it" if k == 1 else f"all {integer(k)}"
    steps = [
        f"The draft model proposes {drafted}; the target model scores {them} in one forward pass, which costs "
        f"about one ordinary decode step because decode is bound by reading the weights, not by the tokens.",
    ]
    if a > 0:
        steps.append(
            f"A drafted token counts only if every one before it was accepted, and the pass always adds one token of "
            f"the target's own, so at acceptance {num(a)} a pass yields {_sum_terms(a, k)} = {num(expected)} tokens "
            f"on average."
        )
    else:
        steps.append(
            "At acceptance 0 every drafted token is rejected; the pass still yields the target's own token, "
            "so it averages 1 token, no better than plain decoding."
        )
    steps += [
        f"If drafting were free, decode would rise from {rate(base)} to {num(base)} × {num(expected)} = "
        f"{rate(o['ideal_tokens_per_s'])}: the ceiling.",
        f"Drafting is not free: {integer(k)} draft {'step' if k == 1 else 'steps'} at {num(r)} of a target step "
        f"plus the check make a round of {integer(k)} × {num(r)} + 1 = {num(o['round_cost_target_steps'])} "
        f"target-step times.",
    ]
    if speedup > 1:
        steps.append(
            f"Speedup = {num(expected)} ÷ {num(o['round_cost_target_steps'])} = {times(speedup)}, "
            f"so about {rate(base)} × {num(speedup)} = {rate(o['tokens_per_s'])}."
        )
    else:
        steps.append(
            f"Speedup = {num(expected)} ÷ {num(o['round_cost_target_steps'])} = {times(speedup)}: "
            f"{'no gain' if speedup == 1 else 'slower than plain decoding'}, {rate(o['tokens_per_s'])} "
            f"against {rate(base)}."
        )
    steps.append(
        "Quality does not change: the target model scores every token that is shipped, keeps a drafted token only "
        "as often as its own distribution allows (rejection sampling), and replaces the first rejected one with its "
        "own sample, so the output follows exactly the distribution the target would produce alone."
    )
    best, best_speedup = o["best_draft_tokens"], tidy(o["best_speedup"])
    best_text = f"{integer(best)} {'token' if best == 1 else 'tokens'}"
    if a == 0:
        steps.append("With every draft rejected, no draft length can pay: the fewer drafted tokens, the less is lost.")
    elif best_speedup <= 1:
        steps.append(
            f"No draft length pays at this acceptance and cost: even the best, {best_text}, gives "
            f"{times(best_speedup)}. A cheaper draft model or a better-matched one is needed first."
        )
    elif r == 0:
        steps.append(
            f"With a free draft, a longer draft always helps a little, but a pass never averages more than "
            f"1 ÷ (1 − {num(a)}) = {num(o['max_tokens_per_pass'])} tokens however long the draft."
        )
    else:
        ceiling = (
            f"however long the draft, a pass never averages more than 1 ÷ (1 − {num(a)}) = "
            f"{num(o['max_tokens_per_pass'])} tokens, while every draft step costs the same"
        )
        if best == k:
            steps.append(f"{drafted.capitalize()} is already the best draft length here: {ceiling}.")
        else:
            steps.append(
                f"At this acceptance and cost, drafting {best_text} would do best ({times(best_speedup)}): {ceiling}."
            )
    if speedup > 1:
        conclusion = (
            f"Drafting {drafted} at acceptance {num(a)} lifts decode from {rate(base)} to about "
            f"{rate(o['tokens_per_s'])} ({times(speedup)}), and the output is unchanged because the target "
            f"model still decides every token."
        )
    else:
        conclusion = (
            f"At acceptance {num(a)} the draft costs more than it saves ({times(speedup)}): speculation pays only "
            f"when the draft model guesses well and runs cheaply."
        )
    return Explanation(steps, conclusion)


def charts(v, o) -> list[dict]:
    a, k, r = v["acceptance_rate"], v["draft_tokens"], v["draft_cost_ratio"]
    k_max = max(16, k)
    ks = np.arange(1, k_max + 1)
    curves = list(zip(RATES, COLOURS, strict=True))
    if round(a, 2) not in RATES:
        curves.append((a, fig.PURPLE))
    traces = []
    for rate_, colour in sorted(curves):
        name = f"acceptance {num(rate_)}" + (" (yours)" if round(rate_, 2) == round(a, 2) else "")
        trace = fig.line(
            ks,
            tokens_per_pass(rate_, ks),
            name,
            colour,
            hover="%{x} drafted → %{y:.3g} tokens per pass",
            width=3.5 if round(rate_, 2) == round(a, 2) else 2,
        )
        traces.append(trace)
    traces.append(
        fig.line(
            ks,
            tokens_per_pass(a, ks) / (ks * r + 1),
            f"acceptance {num(a)}, speedup after draft cost",
            fig.INK,
            dash="dash",
            hover="%{x} drafted → %{y:.3g}× speedup",
        )
    )
    here = fig.points(
        [k, k],
        [o["expected_tokens_per_pass"], o["speedup"]],
        "this setting",
        text=[
            f"{num(o['expected_tokens_per_pass'])} tokens per pass",
            f"{times(o['speedup'])} speedup",
        ],
        hover="%{x} drafted → %{y:.3g}",
    )
    here["textposition"] = "top left" if k > 0.7 * k_max else "top right"
    traces.append(here)
    traces.append(fig.line([1, k_max], [1, 1], "plain decoding: 1 token per pass, 1×", fig.GREY, dash="dot", width=1.5))
    chart = fig.figure(
        "Tokens per target pass against draft length",
        traces,
        fig.axis("drafted tokens per pass (k)", range_=[0.5, k_max + 0.5], dtick=1 if k_max <= 16 else 4),
        fig.axis("tokens per pass · speedup ×", rangemode="tozero"),
    )
    chart["layout"]["height"] = 440  # room for the legend under the plot
    return [chart]


CALCULATOR = Calculator(
    slug="speculative-decoding",
    title="Speculative decoding: faster decode, the same output",
    summary="How many tokens each target-model pass yields when a draft model guesses ahead, "
    "and what speedup is left after paying for the draft.",
    order=70,
    params=PARAMS,
    compute=compute,
    explain=explain,
    charts=charts,
    headlines=(
        Headline("expected_tokens_per_pass", "Tokens per target pass", lambda x: num(x)),
        Headline("speedup", "Speedup after draft cost", lambda x: times(x)),
        Headline("tokens_per_s", "Decode speed", lambda x: rate(x)),
    ),
)
