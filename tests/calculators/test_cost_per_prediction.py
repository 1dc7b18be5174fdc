import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("cost-per-prediction").outputs
    assert o["predictions_per_hour"] == pytest.approx(54_000)
    assert o["serving_cost_per_call"] == pytest.approx(4 / 54_000)
    assert o["cost_per_prediction"] == pytest.approx(4 / 54_000 + 3e-6)
    assert o["cost_per_million"] == pytest.approx(77.074, abs=1e-3)
    assert o["fixed_share"] == pytest.approx(0.9611, abs=1e-4)


def test_extra_outputs_at_the_defaults():
    o = run("cost-per-prediction").outputs
    assert o["feature_cost_per_call"] == pytest.approx(3e-6)
    assert o["has_cost"] is True
    # Flat out: $4 / 180,000 = $0.0000222 + $0.000003 → $25.22 per million.
    assert o["cost_per_million_at_full_load"] == pytest.approx(25.222, abs=1e-3)


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("cost-per-prediction"))
    for figure in [
        "50 × 3,600 × 0.3 = 54,000 predictions",
        "$4.00 ÷ 54,000 = $0.0000741",
        "3 × $0.000001 = $0.000003",
        "$0.0000741 + $0.000003 = $0.0000771 a prediction, or $77.07 per million",
        "96 % of each call is capacity",
        "Utilisation dominates",
        "$25.22 per million",
        "larger model version",
        "retries",
        "warm replicas left idle",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "$77.07 per million predictions, 96 % of it fixed capacity: how busy the replicas are, "
        "not how many requests arrive, sets the price of a prediction."
    )


def test_retries_multiply_both_parts():
    # 1.5 × ($4/54,000 + $0.000003) = 1.5 × $0.0000770741 = $0.000115611 → $115.61 per million.
    r = run("cost-per-prediction", calls_per_prediction=1.5)
    assert r.outputs["cost_per_million"] == pytest.approx(115.611, abs=1e-3)
    assert r.outputs["fixed_share"] == pytest.approx(0.9611, abs=1e-4)
    assert "1.5 × ($0.0000741 + $0.000003) = $0.000116" in text(r)


def test_a_bigger_model_with_a_third_of_the_capacity_nearly_triples_the_bill():
    # capacity 50/3: 16.667 × 3,600 × 0.3 = 18,000 an hour; $4/18,000 = $0.000222;
    # + $0.000003 = $0.000225 → $225.22 per million, 2.92× $77.07.
    o = run("cost-per-prediction", capacity_per_s=50 / 3).outputs
    assert o["predictions_per_hour"] == pytest.approx(18_000)
    assert o["cost_per_million"] == pytest.approx(225.222, abs=1e-3)


def test_an_expensive_gpu_busy_most_of_the_time():
    # 200 × 3,600 × 0.8 = 576,000 an hour; $12/576,000 = $0.0000208333;
    # 10 reads × $0.0000005 = $0.000005; total $0.0000258333 → $25.83 per million; fixed 80.6 %.
    o = run(
        "cost-per-prediction",
        hourly_cost=12,
        capacity_per_s=200,
        utilization=0.8,
        feature_reads=10,
        feature_read_cost=0.0000005,
    ).outputs
    assert o["predictions_per_hour"] == pytest.approx(576_000)
    assert o["serving_cost_per_call"] == pytest.approx(12 / 576_000)
    assert o["cost_per_million"] == pytest.approx(25.8333, abs=1e-4)
    assert o["fixed_share"] == pytest.approx(20.8333 / 25.8333, abs=1e-4)


def test_costly_feature_reads_take_over():
    # reads 3 × $0.001 = $0.003 vs capacity $0.0000741: fixed share 0.0000741/0.0030741 = 2.4 %.
    r = run("cost-per-prediction", feature_read_cost=0.001)
    assert r.outputs["fixed_share"] == pytest.approx(0.02410, abs=1e-4)
    assert r.outputs["cost_per_million"] == pytest.approx(3074.07, abs=0.01)
    assert "feature reads per prediction set the price" in r.conclusion
    assert "Utilisation matters less here" in text(r)


def test_full_utilisation_has_nothing_left_to_gain_from_load():
    r = run("cost-per-prediction", utilization=1)
    assert r.outputs["cost_per_million"] == pytest.approx(r.outputs["cost_per_million_at_full_load"])
    assert "already runs flat out" in text(r)


def test_no_feature_reads_leaves_only_fixed_cost():
    o = run("cost-per-prediction", feature_reads=0).outputs
    assert o["feature_cost_per_call"] == 0
    assert o["fixed_share"] == 1
    assert o["cost_per_million"] == pytest.approx(74.074, abs=1e-3)


def test_free_capacity_leaves_only_the_reads():
    r = run("cost-per-prediction", hourly_cost=0)
    assert r.outputs["cost_per_million"] == pytest.approx(3.0)
    assert r.outputs["fixed_share"] == 0
    assert "all of it feature reads" in r.conclusion


def test_nothing_costs_anything_so_the_fixed_share_is_undefined():
    r = run("cost-per-prediction", hourly_cost=0, feature_reads=0)
    assert r.outputs["cost_per_prediction"] == 0
    assert r.outputs["has_cost"] is False
    assert r.outputs["fixed_share"] is None
    assert "costs nothing" in r.conclusion


def test_the_corners_of_the_box_stay_finite():
    o = run(
        "cost-per-prediction",
        hourly_cost=100_000,
        capacity_per_s=0.001,
        utilization=0.001,
        calls_per_prediction=100,
        feature_reads=10_000,
        feature_read_cost=1,
    ).outputs
    assert all(value is not None for value in o.values())


def test_it_has_no_cross_field_rules():
    calculator = registry.get("cost-per-prediction")
    assert calculator.rules(calculator.defaults) == {}


def test_the_chart_plots_cost_against_utilisation_on_log_axes():
    chart = run("cost-per-prediction").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["total", "capacity (fixed)", "feature reads", "this setting"]
    total, fixed, reads, point = chart["data"]
    assert total["x"][0] == pytest.approx(0.01) and total["x"][-1] == 1
    assert total["y"][-1] == pytest.approx(25.22, abs=0.01)
    assert fixed["y"][-1] == pytest.approx(22.22, abs=0.01)
    assert set(reads["y"]) == {3.0}
    assert point["x"] == [0.3]
    assert point["y"] == [77.07]
    assert chart["layout"]["xaxis"]["type"] == "log"
    assert chart["layout"]["yaxis"]["type"] == "log"


def test_the_chart_reaches_down_to_a_very_low_utilisation():
    chart = run("cost-per-prediction", utilization=0.002).charts[0]
    assert chart["data"][0]["x"][0] == pytest.approx(0.002)


def test_a_free_setup_draws_on_a_linear_axis():
    chart = run("cost-per-prediction", hourly_cost=0, feature_reads=0).charts[0]
    assert [trace["name"] for trace in chart["data"]] == ["total", "this setting"]
    assert chart["layout"]["yaxis"]["type"] == "linear"
