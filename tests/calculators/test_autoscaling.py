import math

import orjson
import pytest

from calculators.engine.rounding import ceil_count as whole_replicas
from calculators.jsonresponse import JSONResponse
from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("autoscaling").outputs
    assert o["in_flight"] == 80
    assert o["requests_per_replica"] == pytest.approx(11.2)
    assert o["replicas_needed"] == 8
    assert isinstance(o["replicas_needed"], int)
    assert o["arrival_after_cold_start_per_s"] == pytest.approx(20 * 1.05**5, rel=1e-12)
    assert o["arrival_after_cold_start_per_s"] == pytest.approx(25.53, abs=0.005)
    assert o["in_flight_after_cold_start"] == pytest.approx(102.1, abs=0.01)
    assert o["replicas_to_keep_warm"] == 10
    assert o["warm_headroom_replicas"] == 2
    assert o["headroom_cost_per_hour"] == 8.0
    assert o["headroom_cost_per_day"] == 192.0


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("autoscaling"))
    for figure in [
        "20 requests/s × 4 s in the system = 80 requests in flight",
        "16 × 70 % = 11.2 requests per replica",
        "80 ÷ 11.2 = 7.14, so 8 replicas now",
        "twice as long (8 s)",
        "160 requests in flight and need 15 replicas",
        "takes 5 min to boot and load its weights",
        "20 × 1.05^5 = 25.5 requests/s (1.28× today's)",
        "25.5 × 4 s = 102 in flight, and 102 ÷ 11.2 = 9.12, so 10 replicas must already be warm now",
        "10 − 8 = 2 replicas",
        "$4.00 an hour each = $8.00 an hour ($192.00 a day)",
    ]:
        assert figure in t, figure
    assert t.splitlines()[-1] == (
        "Size on in-flight work (80 requests → 8 replicas) and pay $8.00 an hour to keep 2 replicas warm, "
        "because a new replica takes 5 min to arrive."
    )


def test_a_faster_ramp_and_a_slower_start():
    # 100/s × 2 s = 200 in flight; 32 slots × 0.8 = 25.6 per replica; 200/25.6 = 7.81 → 8 replicas.
    # 10 min cold start at 10 %/min: 1.1^10 = 2.5937 → 259.37/s × 2 s = 518.7 in flight; /25.6 = 20.26 → 21.
    # Headroom 21 − 8 = 13 replicas × $2.50 = $32.50 an hour.
    o = run(
        "autoscaling",
        arrival_rate_per_s=100,
        request_s=2,
        slots_per_replica=32,
        target_utilization=0.8,
        cold_start_s=600,
        growth_per_min=0.1,
        replica_cost_per_hour=2.5,
    ).outputs
    assert o["in_flight"] == 200
    assert o["replicas_needed"] == 8
    assert o["arrival_after_cold_start_per_s"] == pytest.approx(100 * 1.1**10)
    assert o["replicas_to_keep_warm"] == 21
    assert o["warm_headroom_replicas"] == 13
    assert o["headroom_cost_per_hour"] == pytest.approx(32.5)


def test_a_cold_start_of_a_minute_and_a_half_uses_a_fractional_exponent():
    # 90 s = 1.5 minutes at 20 %/min: 1.2^1.5 = 1.31453; 20 × 1.31453 = 26.29/s × 4 s = 105.16; /11.2 = 9.39 → 10.
    o = run("autoscaling", cold_start_s=90, growth_per_min=0.2).outputs
    assert o["growth_over_cold_start"] == pytest.approx(1.2**1.5)
    assert o["arrival_after_cold_start_per_s"] == pytest.approx(26.2906, abs=1e-4)
    assert o["replicas_to_keep_warm"] == 10
    assert o["warm_headroom_replicas"] == 2


def test_longer_replies_need_more_replicas_at_the_same_request_rate():
    # Little's law: 20/s × 8 s = 160 in flight; 160/11.2 = 14.3 → 15 replicas, though the request rate is unchanged.
    o = run("autoscaling", request_s=8).outputs
    assert o["in_flight"] == 160
    assert o["replicas_needed"] == 15


def test_a_whole_number_of_replicas_is_not_rounded_up_by_float_dust():
    # 3/s × 0.1 s = 0.30000000000000004 in flight; 1 slot × 0.3 = 0.3 per replica: exactly one replica.
    o = run("autoscaling", arrival_rate_per_s=3, request_s=0.1, slots_per_replica=1, target_utilization=0.3).outputs
    assert o["replicas_needed"] == 1
    assert whole_replicas(7.000000000000001) == 7
    assert whole_replicas(7.1) == 8
    assert whole_replicas(0.2) == 1
    assert whole_replicas(0.0) == 0
    assert whole_replicas(9_999_999_999_999.998) == 10_000_000_000_000  # no fudge where floats are coarse


def test_no_cold_start_or_flat_traffic_needs_no_warm_headroom():
    for overrides in ({"cold_start_s": 0}, {"growth_per_min": 0}):
        result = run("autoscaling", **overrides)
        o = result.outputs
        assert o["replicas_to_keep_warm"] == o["replicas_needed"] == 8
        assert o["warm_headroom_replicas"] == 0
        assert o["headroom_cost_per_hour"] == 0
        assert "costs nothing extra" in result.conclusion
    assert "start instantly" in text(run("autoscaling", cold_start_s=0))
    assert "traffic is flat" in text(run("autoscaling", growth_per_min=0))


def test_slow_growth_that_fits_in_the_running_replicas():
    # 1.001^5 = 1.005: 80.4 in flight / 11.2 = 7.18 → still 8.
    result = run("autoscaling", growth_per_min=0.001)
    assert result.outputs["replicas_to_keep_warm"] == 8
    assert "still fits in the 8 replicas already running" in text(result)


def test_no_traffic_needs_no_replicas():
    result = run("autoscaling", arrival_rate_per_s=0)
    o = result.outputs
    assert o["in_flight"] == 0
    assert o["replicas_needed"] == 0
    assert o["replicas_to_keep_warm"] == 0
    assert o["headroom_cost_per_hour"] == 0
    assert result.conclusion.startswith("No traffic")


def test_the_most_extreme_corner_stays_finite_and_serialisable():
    # 2^(7200/60) = 2^120 growth on 1e6/s × 1e5 s over 0.01 requests per replica: about 1.3 × 10⁴⁹ replicas.
    result = run(
        "autoscaling",
        arrival_rate_per_s=1e6,
        request_s=1e5,
        slots_per_replica=1,
        target_utilization=0.01,
        cold_start_s=7200,
        growth_per_min=1,
        replica_cost_per_hour=1e5,
    )
    o = result.outputs
    assert o["growth_over_cold_start"] == 2.0**120
    assert o["replicas_needed"] == 10**13
    assert o["replicas_to_keep_warm"] == pytest.approx(1e13 * 2.0**120)
    assert all(math.isfinite(x) for x in o.values())
    # counts past 2^53 travel as floats, never overflowing JSON integers
    orjson.loads(JSONResponse(result.as_json()).content)
    assert "1.33 × 10⁴⁹ replicas must already be warm" in text(result)
    assert result.charts[0]["layout"]["yaxis"]["type"] == "log"


def test_the_chart_shows_the_ramp_the_lagging_scaler_and_the_warm_target():
    chart = run("autoscaling").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["replicas needed", "scaling only when needed (gap = queueing)", "now and one cold start later"]
    needed, reactive, marks = chart["data"]
    assert needed["line"]["shape"] == reactive["line"]["shape"] == "hv"
    assert needed["x"][0] == 0 and needed["x"][-1] == 15  # three cold starts
    assert needed["y"][0] == 8 and needed["y"][-1] == 15  # 20 × 1.05^15 × 4 / 11.2 = 14.85 → 15
    # The reactive scaler only catches up a cold start later: at 5 min it still has the 8 it had at 0.
    at_5 = needed["x"].index(5.0)
    assert reactive["y"][at_5] == 8 and needed["y"][at_5] == 10
    assert marks["x"] == [0, 5] and marks["y"] == [8, 10]
    vertical, horizontal = chart["layout"]["shapes"]
    assert vertical["x0"] == 5
    assert horizontal["y0"] == 10
    assert chart["layout"]["xaxis"]["type"] == "linear"
    assert chart["layout"]["yaxis"]["type"] == "linear"


def test_without_a_cold_start_the_chart_has_no_cold_start_marker():
    chart = run("autoscaling", cold_start_s=0).charts[0]
    assert len(chart["layout"]["shapes"]) == 1  # only the warm target
    assert chart["data"][0]["y"] == chart["data"][1]["y"]
