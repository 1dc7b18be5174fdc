import orjson
import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text

CONTINUOUS = "continuous: decoding a reply (slots out of step)"


def test_defaults_give_the_banks_figures():
    o = run("continuous-batching").outputs
    assert o["capacity_tokens"] == 8000
    assert o["static_batch_s"] == 25
    assert o["static_completed"] == 8
    assert o["continuous_completed"] == 16
    assert o["static_slot_utilization"] == 0.5
    assert o["continuous_gain"] == 2
    assert isinstance(o["static_completed"], int) and isinstance(o["continuous_completed"], int)


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("continuous-batching"))
    for figure in [
        "8 × 25 s × 40 tokens/s = 8,000 tokens",
        "1,000 ÷ 40 tokens/s = 25 s per batch",
        "1 × 8 = 8 replies",
        "busy for 12.5 s of each 25 s batch",
        "only 50 % of slot time",
        "4,000 of the 8,000 tokens",
        "8,000 tokens ÷ 500 tokens per reply = 16 replies",
        "16 ÷ 8 = 2× as many",
        "preempted",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "Refilling each slot the moment it frees turns 8 replies into 16: 2× as many from the same hardware."
    )


def test_a_window_that_ends_mid_batch():
    # 8 × 60 s × 40 tokens/s = 19,200 tokens. Batch: 900 / 40 = 22.5 s; floor(60 / 22.5) = 2 → 16 static.
    # Continuous: floor(19,200 / 600) = 32. Slot utilisation 600 / 900 = 2/3; the last 60 − 45 = 15 s are lost.
    r = run("continuous-batching", window_s=60, response_tokens=600, longest_tokens=900)
    o = r.outputs
    assert o["capacity_tokens"] == 19_200
    assert o["static_batch_s"] == 22.5
    assert o["static_completed"] == 16
    assert o["continuous_completed"] == 32
    assert o["static_slot_utilization"] == pytest.approx(2 / 3)
    assert "the last 15 s start a batch that does not finish" in text(r)


def test_a_big_server_with_one_very_long_reply_per_batch():
    # 64 × 600 s × 25 tokens/s = 960,000 tokens. Batch: 2,000 / 25 = 80 s; floor(600 / 80) = 7 → 7 × 64 = 448.
    # Continuous: 960,000 / 300 = 3,200. Utilisation 300 / 2,000 = 15 %; gain 3,200 / 448 = 7.14.
    o = run(
        "continuous-batching", slots=64, window_s=600, tokens_per_s=25, response_tokens=300, longest_tokens=2000
    ).outputs
    assert o["capacity_tokens"] == 960_000
    assert o["static_batch_s"] == 80
    assert o["static_completed"] == 448
    assert o["continuous_completed"] == 3200
    assert o["static_slot_utilization"] == pytest.approx(0.15)
    assert o["continuous_gain"] == pytest.approx(3200 / 448)


def test_whole_batches_are_counted_despite_float_noise():
    # 3 tokens / 0.1 tokens/s is 30.000000000000004 s in floating point, yet a 30 s window holds exactly 1 batch.
    # Capacity 1 × 30 × 0.1 = 3 tokens → floor(3 / 2) = 1 continuous reply.
    o = run("continuous-batching", slots=1, window_s=30, tokens_per_s=0.1, response_tokens=2, longest_tokens=3).outputs
    assert o["static_completed"] == 1
    assert o["continuous_completed"] == 1


def test_a_longest_reply_longer_than_the_window_means_no_static_batch_finishes():
    # 2,000 / 40 = 50 s > 25 s: static 0; continuous still 8,000 / 500 = 16.
    r = run("continuous-batching", longest_tokens=2000)
    assert r.outputs["static_completed"] == 0
    assert r.outputs["continuous_completed"] == 16
    assert r.outputs["continuous_gain"] is None
    assert r.outputs["static_finishes"] is False
    assert "not one static batch finishes" in text(r)
    assert r.conclusion.startswith("Static batching finishes nothing inside the window")


def test_nothing_finishes_when_the_window_is_shorter_than_one_reply():
    # 1 × 1 s × 0.1 tokens/s = 0.1 tokens: not one 1-token reply.
    r = run("continuous-batching", slots=1, window_s=1, tokens_per_s=0.1, response_tokens=1, longest_tokens=1)
    assert r.outputs["static_completed"] == 0
    assert r.outputs["continuous_completed"] == 0
    assert "Even continuous batching finishes nothing" in text(r)


def test_equal_replies_leave_nothing_to_reclaim():
    # 500 / 40 = 12.5 s per batch, 2 batches in 25 s → 16; continuous 8,000 / 500 = 16.
    r = run("continuous-batching", longest_tokens=500)
    assert r.outputs["static_completed"] == r.outputs["continuous_completed"] == 16
    assert r.outputs["static_slot_utilization"] == 1
    assert r.conclusion == "When every reply is as long as the longest, both schedules finish 16 replies."


def test_the_longest_reply_cannot_be_shorter_than_the_mean():
    rules = registry.get("continuous-batching").rules
    values = dict(registry.get("continuous-batching").defaults)
    broken = rules({**values, "longest_tokens": 400})
    assert list(broken) == ["longest_tokens"]
    assert "400 tokens" in broken["longest_tokens"][0] and "500 tokens" in broken["longest_tokens"][0]
    assert rules({**values, "longest_tokens": 500}) == {}
    assert rules(values) == {}


def test_the_chart_shows_idle_static_slots_and_back_to_back_continuous_ones():
    chart = run("continuous-batching").charts[0]
    traces = {t["name"]: t for t in chart["data"]}
    assert list(traces) == [
        "static: decoding a reply",
        "static: idle, waiting for the longest reply",
        CONTINUOUS,
        "not finished when the window closes",
    ]
    busy, idle = traces["static: decoding a reply"], traces["static: idle, waiting for the longest reply"]
    assert busy["base"] == [0.0] * 8 and busy["x"] == [12.5] * 8 and busy["y"] == list(range(8))
    assert idle["base"] == [12.5] * 8 and idle["x"] == [12.5] * 8
    assert all(t["type"] == "bar" and t["orientation"] == "h" for t in chart["data"])
    assert len(traces[CONTINUOUS]["x"]) == 16  # one bar per finished reply: the 16 of the worked answer
    layout = chart["layout"]
    assert layout["barmode"] == "overlay"
    assert layout["xaxis"]["type"] == "linear" and layout["xaxis"]["range"][0] == 0
    assert layout["yaxis"]["autorange"] == "reversed"
    assert layout["yaxis"]["ticktext"][0] == "static, slot 1"
    assert layout["yaxis"]["ticktext"][-1] == "continuous, slot 8"
    assert layout["shapes"][0]["x0"] == 25  # the window's end
    assert layout["title"]["text"] == "Slot timeline: static completes 8, continuous 16"


@pytest.mark.parametrize("slots, window_s, response_tokens", [(3, 25, 600), (5, 77, 333), (8, 10, 1000)])
def test_the_finished_continuous_bars_add_up_to_the_count(slots, window_s, response_tokens):
    r = run(
        "continuous-batching",
        slots=slots,
        window_s=window_s,
        response_tokens=response_tokens,
        longest_tokens=max(1000, response_tokens),
    )
    bars = next(t for t in r.charts[0]["data"] if t["name"] == CONTINUOUS)
    assert len(bars["x"]) == r.outputs["continuous_completed"]


def test_many_slots_or_short_replies_keep_the_chart_small():
    r = run(
        "continuous-batching",
        slots=100_000,
        window_s=1_000_000,
        tokens_per_s=100_000,
        response_tokens=1,
        longest_tokens=10_000_000,
    )
    chart = r.charts[0]
    assert "8 of 100,000 slots" in chart["layout"]["title"]["text"]
    assert "first" in chart["layout"]["title"]["text"]
    assert len(chart["layout"]["yaxis"]["ticktext"]) == 17
    assert len(orjson.dumps(chart)) < 8000
