import math
import time
from fractions import Fraction

import numpy as np
import pytest

from calculators.engine.specs.queueing import erlang_c, erlang_c_curve, knee_utilization
from tests.calculators.helpers import run, text


def erlang_c_by_factorials(slots: int, load: Fraction) -> Fraction:
    """The textbook formula, in exact rational arithmetic: fine for small slot counts."""
    top = load**slots / math.factorial(slots) * Fraction(slots) / (slots - load)
    return top / (sum(load**k / math.factorial(k) for k in range(slots)) + top)


def erlang_c_by_logs(slots: int, load: float) -> float:
    """An independent route for big slot counts: 1/B = Σ c!/(m!·A^(c−m)), summed in logs."""
    logs = [math.lgamma(slots + 1) - math.lgamma(m + 1) - (slots - m) * math.log(load) for m in range(slots + 1)]
    top = max(logs)
    b = 1 / (math.exp(top) * math.fsum(math.exp(x - top) for x in logs))
    return b / (1 - load / slots * (1 - b))


C_DEFAULT = float(erlang_c_by_factorials(16, Fraction(25, 2)))  # 0.264105…


def test_defaults_give_the_queue_figures():
    o = run("queueing").outputs
    assert o["offered_load"] == 12.5
    assert o["utilization"] == 0.78125
    assert o["stable"] is True
    assert o["prob_wait"] == pytest.approx(C_DEFAULT, rel=1e-12)
    assert o["prob_wait"] == pytest.approx(0.26411, abs=1e-5)
    assert o["wait_if_queued_s"] == pytest.approx(12.5 / 3.5)
    assert o["mean_wait_s"] == pytest.approx(C_DEFAULT * 12.5 / 3.5, rel=1e-12)
    assert o["mean_queue_length"] == pytest.approx(1.0 * C_DEFAULT * 12.5 / 3.5, rel=1e-12)
    assert o["p95_wait_s"] == pytest.approx(math.log(C_DEFAULT / 0.05) * 12.5 / 3.5, rel=1e-12)
    assert o["p95_wait_s"] == pytest.approx(5.944, abs=1e-3)
    assert o["p95_ttft_s"] == pytest.approx(5.944 + 0.28, abs=1e-3)
    assert o["mean_ttft_s"] == pytest.approx(0.9432 + 0.28, abs=1e-4)


def test_the_p95_knee_and_the_slots_that_flatten_it_match_the_factorial_formula():
    o = run("queueing").outputs
    # 19 slots still queue more than 5 % of 12.5 Erlangs; 20 do not.
    assert erlang_c_by_factorials(19, Fraction(25, 2)) > Fraction(1, 20)
    assert erlang_c_by_factorials(20, Fraction(25, 2)) <= Fraction(1, 20)
    assert o["slots_to_keep_p95_at_prefill"] == 20
    assert o["min_stable_slots"] == 13
    knee = o["knee_utilization"]
    assert float(erlang_c_by_factorials(16, Fraction(knee * 16))) == pytest.approx(0.05, abs=1e-5)


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("queueing"))
    for figure in [
        "1 request/s × 12.5 s each = 12.5 requests",
        "12.5 ÷ 16 = 0.781 (78 %) utilisation",
        "B = 0.0728, so C = B ÷ (1 − 0.781 × (1 − B)) = 0.264: 26 % of requests queue",
        "16 − 12.5 = 3.5 slots of slack",
        "12.5 s ÷ 3.5 = 3.57 s",
        "0.264 × 3.57 s = 0.943 s",
        "0.943 requests in the queue",
        "p95 wait = ln(0.264 ÷ 0.05) × 3.57 s = 5.94 s",
        "p95 TTFT = 5.94 s + 0.28 s = 6.22 s",
        "mean TTFT of 0.943 s + 0.28 s = 1.22 s",
        "until utilisation reaches 61 %",
        "the 74 % who never wait",
        "needs 20 slots",
    ]:
        assert figure in t, figure
    assert t.splitlines()[-1] == (
        "At 78 % utilisation p95 TTFT is 6.22 s, 22.2× the 0.28 s prefill, while the mean is only 1.22 s: "
        "the tail turns up first, so watch p95 TTFT."
    )


def test_one_slot_is_the_m_m_1_queue():
    # M/M/1: C = ρ = 0.5 × 1 s = 0.5; mean wait = ρ/(1 − ρ) × 1 s = 1 s; Lq = 0.5 × 1 = 0.5;
    # p95 wait = ln(0.5 / 0.05) × 1 s / (1 − 0.5) = 2 ln 10 = 4.605 s.
    o = run("queueing", slots=1, arrival_rate_per_s=0.5, mean_request_s=1, prefill_s=0.1).outputs
    assert o["prob_wait"] == pytest.approx(0.5)
    assert o["mean_wait_s"] == pytest.approx(1.0)
    assert o["mean_queue_length"] == pytest.approx(0.5)
    assert o["p95_wait_s"] == pytest.approx(2 * math.log(10))
    assert o["p95_ttft_s"] == pytest.approx(2 * math.log(10) + 0.1)


def test_two_slots_at_half_load():
    # A = 1 × 1 = 1 Erlang on 2 slots: B = (1/2)/(1 + 1 + 1/2) = 0.2; C = 0.2/(1 − 0.5 × 0.8) = 1/3.
    # Mean wait = 1/3 × 1 s/(2 − 1) = 1/3 s; p95 wait = ln((1/3)/0.05) × 1 s = ln(20/3) = 1.897 s.
    o = run("queueing", slots=2, arrival_rate_per_s=1, mean_request_s=1, prefill_s=0.5).outputs
    assert o["erlang_b"] == pytest.approx(0.2)
    assert o["prob_wait"] == pytest.approx(1 / 3)
    assert o["mean_wait_s"] == pytest.approx(1 / 3)
    assert o["mean_queue_length"] == pytest.approx(1 / 3)
    assert o["p95_wait_s"] == pytest.approx(math.log(20 / 3))
    assert o["p95_ttft_s"] == pytest.approx(math.log(20 / 3) + 0.5)
    # C = 2ρ²/(1 + ρ) on two slots, so C = 0.05 where 2ρ² − 0.05ρ − 0.05 = 0: ρ = (0.05 + √0.4025)/4.
    assert o["knee_utilization"] == pytest.approx((0.05 + math.sqrt(0.4025)) / 4, abs=1e-4)


def test_light_traffic_leaves_p95_at_the_bare_prefill():
    # 0.5/s × 12.5 s = 6.25 Erlangs on 16 slots: C = 0.000821 < 5 %, so the p95 request never waits.
    result = run("queueing", arrival_rate_per_s=0.5)
    o = result.outputs
    assert o["prob_wait"] == pytest.approx(float(erlang_c_by_factorials(16, Fraction(25, 4))), rel=1e-12)
    assert o["prob_wait"] < 0.05
    assert o["p95_wait_s"] == 0
    assert o["p95_ttft_s"] == 0.28
    assert 0 < o["mean_wait_s"] < 0.002
    assert "p95 wait = 0" in text(result)
    assert "still the bare prefill (0.28 s)" in result.conclusion


def test_ten_thousand_slots_near_saturation_match_an_independent_sum():
    # 790/s × 12.5 s = 9,875 Erlangs on 10,000 slots: 98.75 % busy, 125 slots of slack.
    o = run("queueing", slots=10_000, arrival_rate_per_s=790).outputs
    c = erlang_c_by_logs(10_000, 9875.0)
    assert o["utilization"] == pytest.approx(0.9875)
    assert o["prob_wait"] == pytest.approx(c, rel=1e-9)
    assert o["wait_if_queued_s"] == pytest.approx(0.1)
    assert o["p95_wait_s"] == pytest.approx(math.log(c / 0.05) * 0.1, rel=1e-9)
    assert o["slots_to_keep_p95_at_prefill"] is None  # would take more than 10,000


def test_the_fast_curve_agrees_with_the_recursion_everywhere():
    for slots in (1, 2, 7, 16, 100, 1000, 10_000):
        rho = np.concatenate([np.linspace(0, 0.99, 40), 1 - np.geomspace(0.2, 1e-5, 24)])
        fast = erlang_c_curve(slots, rho * slots)
        exact = np.array([erlang_c(slots, a) if a > 0 else 0.0 for a in rho * slots])
        np.testing.assert_allclose(fast, exact, rtol=1e-10, atol=1e-14)


def test_the_knee_moves_toward_full_load_as_the_pool_grows():
    # One slot: C = ρ, so 5 % of arrivals queue at 5 % utilisation. Big pools run hotter before the tail moves.
    assert knee_utilization(1) == pytest.approx(0.05, abs=1e-4)
    knees = [knee_utilization(c) for c in (1, 16, 100, 1000, 10_000)]
    assert knees == sorted(knees)
    assert knees[-1] == pytest.approx(0.9827, abs=1e-3)


def test_no_traffic_means_no_wait():
    result = run("queueing", arrival_rate_per_s=0)
    o = result.outputs
    assert o["utilization"] == 0
    assert o["prob_wait"] == 0
    assert o["mean_wait_s"] == 0
    assert o["p95_wait_s"] == 0
    assert o["p95_ttft_s"] == 0.28
    assert o["slots_to_keep_p95_at_prefill"] == 1
    assert "No requests arrive" in text(result)


def test_an_overloaded_pool_is_flagged_unstable_with_no_waits():
    # 2/s × 12.5 s = 25 Erlangs on 16 slots: 156 % busy. At least 26 slots to keep up.
    result = run("queueing", arrival_rate_per_s=2)
    o = result.outputs
    assert o["utilization"] == pytest.approx(1.5625)
    assert o["stable"] is False
    assert o["prob_wait"] == 1.0
    for name in ("mean_wait_s", "mean_queue_length", "p95_wait_s", "p95_ttft_s", "mean_ttft_s"):
        assert o[name] is None, name
    assert o["min_stable_slots"] == 26
    t = text(result)
    assert "1.28 requests/s, fewer than the 2 requests/s arriving" in t
    assert "at least 26" in t
    assert "never drains" in result.conclusion


def test_exactly_full_is_already_unstable():
    # 1.28/s × 12.5 s = 16 Erlangs on 16 slots: utilisation 1, no slack to drain a queue.
    result = run("queueing", arrival_rate_per_s=1.28)
    assert result.outputs["utilization"] == 1.0
    assert result.outputs["stable"] is False
    assert result.outputs["p95_ttft_s"] is None
    assert "exactly what arrives, with no slack" in text(result)


def test_zero_prefill_drops_the_ratio_from_the_conclusion():
    result = run("queueing", prefill_s=0)
    assert result.outputs["p95_ttft_s"] == result.outputs["p95_wait_s"]
    assert "×" not in result.conclusion


def test_the_chart_is_the_p95_hockey_stick_with_the_current_point():
    chart = run("queueing").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["p95 time to first token", "mean time to first token", "this setting"]
    p95, mean, here = chart["data"]
    assert p95["x"][0] == 0 and p95["x"][-1] == 0.99
    assert p95["y"][0] == 0.28  # no queue at zero load: bare prefill
    assert p95["y"][-1] > 100 * p95["y"][0]  # …and the hockey stick at 99 %
    assert all(m <= p for m, p in zip(mean["y"], p95["y"], strict=True) if p > 0.28)
    assert here["x"] == [0.7812] and here["y"] == [6.224]
    assert chart["layout"]["xaxis"]["type"] == "linear"
    assert chart["layout"]["yaxis"]["type"] == "linear"
    assert chart["layout"]["xaxis"]["tickformat"] == ".0%"
    assert chart["layout"]["shapes"][0]["x0"] == pytest.approx(0.6139, abs=1e-3)


def test_an_unstable_setting_is_not_marked_on_the_curve():
    chart = run("queueing", arrival_rate_per_s=2).charts[0]
    assert [trace["name"] for trace in chart["data"]] == ["p95 time to first token", "mean time to first token"]
    assert any("never drains" in note["text"] for note in chart["layout"]["annotations"])


def test_the_chart_stays_fast_at_ten_thousand_slots():
    from calculators.engine import registry

    calculator = registry.get("queueing")
    values = {**calculator.defaults, "slots": 10_000, "arrival_rate_per_s": 790}
    outputs = calculator.compute(values)
    best = math.inf
    for _ in range(5):
        start = time.perf_counter()
        calculator.charts(values, outputs)
        best = min(best, time.perf_counter() - start)
    assert best < 0.025  # about 2 ms on a laptop; a loop over every slot would take well over 10 ms
