import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("latency-budget").outputs
    assert o["per_fetch_ms"] == 12
    assert o["fetch_total_ms"] == 36
    assert o["total_ms"] == 56
    assert o["headroom_ms"] == -6
    assert o["fits"] is False
    assert o["model_timeout_ms"] == 9


def test_extra_outputs_at_the_defaults():
    o = run("latency-budget").outputs
    assert o["model_has_time"] is True
    assert o["fetch_share"] == pytest.approx(36 / 56)
    assert o["parallel_total_ms"] == 32
    assert o["parallel_cached_total_ms"] == 21


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("latency-budget"))
    for figure in [
        "Break the 50 ms budget into its parts",
        "network round trip (5 ms), 3 feature fetches, and the model call (15 ms)",
        "costs 12 ms",
        "3 × 12 ms = 36 ms: more than the model's 15 ms",
        "5 ms network + 36 ms fetches + 15 ms model = 56 ms against the 50 ms budget",
        "headroom −6 ms, so it does not fit",
        "all at once",
        "the total falls to 32 ms",
        "50 ms − 5 ms − 36 ms = 9 ms",
        "answer without the model",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "56 ms against 50 ms: the feature fetches (36 ms), not the 15 ms model, are what break the budget."
    )


def test_fetching_in_parallel_makes_it_fit():
    # All at once the fetches cost one fetch: 12 ms; total 5 + 12 + 15 = 32 ms; headroom 18 ms;
    # timeout 50 − 5 − 12 = 33 ms.
    r = run("latency-budget", parallel=1)
    o = r.outputs
    assert o["fetch_total_ms"] == 12
    assert o["total_ms"] == 32
    assert o["headroom_ms"] == 18
    assert o["fits"] is True
    assert o["model_timeout_ms"] == 33
    assert r.conclusion == "32 ms of a 50 ms budget: it fits, with 18 ms left over."


def test_a_half_cached_serial_fetch_path():
    # per fetch 0.5 × 1 + 0.5 × 12 = 6.5 ms; 3 × 6.5 = 19.5 ms; total 5 + 19.5 + 15 = 39.5 ms;
    # headroom 10.5 ms; timeout 50 − 5 − 19.5 = 25.5 ms.
    r = run("latency-budget", cache_hit_rate=0.5)
    o = r.outputs
    assert o["per_fetch_ms"] == pytest.approx(6.5)
    assert o["fetch_total_ms"] == pytest.approx(19.5)
    assert o["total_ms"] == pytest.approx(39.5)
    assert o["headroom_ms"] == pytest.approx(10.5)
    assert o["fits"] is True
    assert o["model_timeout_ms"] == pytest.approx(25.5)
    assert "0.5 × 1 ms + 0.5 × 12 ms = 6.5 ms" in text(r)


def test_ten_slow_fetches_with_a_good_cache_in_parallel():
    # per fetch 0.9 × 2 + 0.1 × 40 = 5.8 ms; all at once: 5.8 ms; total 10 + 5.8 + 60 = 75.8 ms
    # against 100 ms: headroom 24.2 ms; timeout 100 − 10 − 5.8 = 84.2 ms.
    o = run(
        "latency-budget",
        budget_ms=100,
        network_ms=10,
        feature_fetches=10,
        fetch_ms=40,
        parallel=1,
        cache_hit_rate=0.9,
        cache_ms=2,
        model_ms=60,
    ).outputs
    assert o["per_fetch_ms"] == pytest.approx(5.8)
    assert o["fetch_total_ms"] == pytest.approx(5.8)
    assert o["total_ms"] == pytest.approx(75.8)
    assert o["headroom_ms"] == pytest.approx(24.2)
    assert o["model_timeout_ms"] == pytest.approx(84.2)


def test_a_slow_model_is_named_as_the_problem():
    # 5 + 12 (parallel) + 40 = 57 ms: 7 ms over; the model is the largest part.
    r = run("latency-budget", parallel=1, model_ms=40)
    assert r.outputs["total_ms"] == 57
    assert r.outputs["fits"] is False
    assert "the model needs 40 ms, so as things stand every call would time out" in text(r)
    assert "the model (40 ms) is the largest part" in r.conclusion


def test_no_fetches_costs_nothing_even_when_a_fetch_is_slow():
    r = run("latency-budget", feature_fetches=0, fetch_ms=1000)
    o = r.outputs
    assert o["fetch_total_ms"] == 0
    assert o["total_ms"] == 20
    assert o["model_timeout_ms"] == 45
    assert "no feature fetches (the request goes straight to the model)" in text(r)


def test_exactly_on_budget_fits():
    # 5 + 36 + 15 = 56 ms against a 56 ms budget.
    r = run("latency-budget", budget_ms=56)
    assert r.outputs["headroom_ms"] == 0
    assert r.outputs["fits"] is True
    assert "it fits exactly" in text(r)


def test_no_time_left_for_the_model_is_flagged():
    # 30 − 5 − 36 = −11 ms: network and fetches alone overrun the budget.
    r = run("latency-budget", budget_ms=30)
    o = r.outputs
    assert o["model_timeout_ms"] == -11
    assert o["model_has_time"] is False
    assert "no model call can finish in time" in text(r)


def test_everything_zero_but_the_budget():
    o = run("latency-budget", network_ms=0, fetch_ms=0, cache_ms=0, model_ms=0, budget_ms=1).outputs
    assert o["total_ms"] == 0
    assert o["fetch_share"] == 0
    assert o["fits"] is True


def test_it_has_no_cross_field_rules():
    calculator = registry.get("latency-budget")
    assert calculator.rules(calculator.defaults) == {}


def test_parallel_is_a_two_way_switch():
    param = registry.get("latency-budget").param("parallel")
    assert param.choices == ((0, "one after another"), (1, "all at once"))


def test_the_chart_stacks_the_parts_against_the_budget_line():
    chart = run("latency-budget").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["network", "feature fetches", "model"]
    network, fetches, model = chart["data"]
    assert all(trace["type"] == "bar" and trace["orientation"] == "h" for trace in chart["data"])
    assert fetches["y"] == ["your setting", "fetches all at once", "all at once, all cached"]
    assert fetches["x"] == [36, 12, 1]
    assert network["x"] == [5, 5, 5] and model["x"] == [15, 15, 15]
    assert chart["layout"]["barmode"] == "stack"
    assert chart["layout"]["yaxis"]["type"] == "category"
    assert chart["layout"]["xaxis"]["type"] == "linear"
    budget = chart["layout"]["shapes"][0]
    assert budget["x0"] == budget["x1"] == 50


def test_the_chart_shows_only_the_setting_when_nothing_can_improve():
    chart = run("latency-budget", parallel=1, cache_hit_rate=1).charts[0]
    assert chart["data"][1]["y"] == ["your setting"]
