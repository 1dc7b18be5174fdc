import math

import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text

# 70 GB ÷ 3.35 TB/s: the weight read every decode step pays at the defaults.
WEIGHT_S = 70e9 / 3.35e12
# 2 × 70e9 FLOPs ÷ 989e12 FLOP/s: one user's arithmetic per step.
COMPUTE_S = 140e9 / 989e12


def test_defaults_give_the_banks_figures():
    o = run("batching").outputs
    assert o["weight_bytes"] == 70e9
    assert o["step_s"] == pytest.approx(WEIGHT_S, rel=1e-12)
    assert o["single_user_tokens_per_s"] == pytest.approx(47.857, abs=1e-3)
    assert o["per_user_tokens_per_s"] == pytest.approx(47.857, abs=1e-3)
    assert o["aggregate_tokens_per_s"] == pytest.approx(765.71, abs=0.01)
    # 989 × 1 ÷ (2 × 3.35) = 147.6: compute takes over where 2·params·batch/peak = the memory time.
    assert o["compute_bound_batch"] == pytest.approx(147.612, abs=1e-3)
    assert o["compute_bound_reachable"] is True
    assert o["compute_bound"] is False


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("batching"))
    for figure in [
        "70 billion × 1 byte = 70 GB",
        "3.35 TB/s ÷ 70 GB = 47.9 tokens/s",
        "a step every 20.9 ms",
        "16 × 2 × 70 billion = 2.24 TFLOPs ÷ 989 TFLOP/s = 2.26 ms",
        "stays memory-bound at 20.9 ms",
        "16 ÷ 20.9 ms = 766 tokens/s in aggregate",
        "1 ÷ 20.9 ms = 47.9 tokens/s for each user",
        "20.9 ms ÷ 142 µs ≈ batch 148, where compute takes over",
        "per-user speed stays near 47.9 tokens/s unless the KV reads",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "Batch 16 turns 47.9 tokens/s into 766 tokens/s for the GPU while each user gets 47.9 tokens/s: "
        "batching shares the weight read, so it buys throughput, not per-user speed."
    )


def test_an_8b_model_in_16_bit_on_an_a100_at_batch_32():
    # 8e9 × 2 bytes = 16 GB; 16e9 / 2.04e12 = 7.843 ms per step.
    # Arithmetic: 32 × 16e9 FLOPs / 312e12 = 1.641 ms < 7.843 ms, so memory-bound.
    # Per user 2.04e12 / 16e9 = 127.5 tokens/s; aggregate 32 × 127.5 = 4,080.
    # Crossover: 2 bytes × 312 / (2 × 2.04) = 152.94.
    o = run("batching", params_b=8, bytes_per_param=2, bandwidth_tbs=2.04, peak_tflops=312, batch=32).outputs
    assert o["weight_bytes"] == 16e9
    assert o["per_user_tokens_per_s"] == pytest.approx(127.5)
    assert o["aggregate_tokens_per_s"] == pytest.approx(4080)
    assert o["compute_bound_batch"] == pytest.approx(152.941, abs=1e-3)


def test_kv_reads_at_4k_context_eat_the_slack_and_compute_never_takes_over():
    # 4,096 tokens × 163,840 bytes = 671,088,640 bytes of cache per user per step.
    # Batch 16: (70e9 + 16 × 671,088,640) / 3.35e12 = 80,737,418,240 / 3.35e12 = 24.10 ms.
    # Aggregate 16 / 24.10 ms = 663.9 tokens/s; per user 41.49. Alone: 70.671e9 / 3.35e12 → 47.40.
    # Each user adds 671,088,640 / 3.35e12 = 200 µs of reading but only 141.6 µs of arithmetic: no crossover.
    o = run("batching", context_tokens=4096).outputs
    assert o["kv_bytes_per_user"] == 671_088_640
    assert o["step_s"] == pytest.approx(80_737_418_240 / 3.35e12)
    assert o["aggregate_tokens_per_s"] == pytest.approx(663.88, abs=0.01)
    assert o["per_user_tokens_per_s"] == pytest.approx(41.493, abs=1e-3)
    assert o["single_user_tokens_per_s"] == pytest.approx(3.35e12 / 70_671_088_640)
    assert o["compute_bound_reachable"] is False
    assert o["compute_bound_batch"] is None
    t = text(run("batching", context_tokens=4096))
    assert "4,096 tokens × 160 KiB = 640 MiB (671 MB)" in t
    assert "the step never becomes compute-bound" in t
    # Aggregate tends to 1 / 200.3 µs = 4,992 tokens/s.
    assert "levels off towards 1 ÷ 200 µs = 4,990 tokens/s" in t


def test_a_short_kv_read_moves_the_crossover_out():
    # 1,000 tokens × 163,840 bytes = 163.84 MB per user → 163.84e6 / 3.35e12 = 48.91 µs a step.
    # Arithmetic 141.56 µs a user, so it gains 92.65 µs a user: 20.896 ms / 92.65 µs = 225.5.
    o = run("batching", context_tokens=1000).outputs
    expected = WEIGHT_S / (COMPUTE_S - 163.84e6 / 3.35e12)
    assert o["compute_bound_batch"] == pytest.approx(expected)
    assert o["compute_bound_batch"] == pytest.approx(225.53, abs=0.01)


def test_far_past_the_crossover_the_step_is_compute_bound():
    # Batch 1,000: 1,000 × 140e9 / 989e12 = 141.6 ms > 20.9 ms of reading.
    # Aggregate = 989e12 / 140e9 = 7,064.3 tokens/s; per user 7.064.
    r = run("batching", batch=1000)
    assert r.outputs["compute_bound"] is True
    assert r.outputs["step_s"] == pytest.approx(1000 * COMPUTE_S)
    assert r.outputs["aggregate_tokens_per_s"] == pytest.approx(989e12 / 140e9)
    assert r.outputs["per_user_tokens_per_s"] == pytest.approx(7.0643, abs=1e-4)
    assert "the step is compute-bound at 0.142 s" in text(r)
    assert "this batch of 1,000 is past it" in text(r)


def test_the_step_turns_compute_bound_between_147_and_148():
    assert run("batching", batch=147).outputs["compute_bound"] is False
    assert run("batching", batch=148).outputs["compute_bound"] is True


def test_batch_one_gives_the_single_user_speed_in_aggregate():
    r = run("batching", batch=1)
    o = r.outputs
    assert o["aggregate_tokens_per_s"] == o["per_user_tokens_per_s"] == o["single_user_tokens_per_s"]
    assert "With a batch of 1 the GPU delivers 47.9 tokens/s in all" in text(r)
    assert r.conclusion.startswith("One user gets 47.9 tokens/s")


def test_zero_kv_bytes_counts_only_the_weights_even_with_a_long_context():
    o = run("batching", context_tokens=1_000_000, kv_bytes_per_token=0).outputs
    assert o["kv_bytes_per_user"] == 0
    assert o["aggregate_tokens_per_s"] == pytest.approx(765.71, abs=0.01)


def test_a_chip_compute_bound_for_one_user_says_batching_buys_nothing():
    # 1 TFLOP/s against 100 TB/s: one user's arithmetic 140e9 / 1e12 = 0.14 s, the read 70e9 / 1e14 = 0.7 ms.
    # Crossover 1 × 1 / (2 × 100) = 0.005 users. Aggregate stays at 1e12 / 140e9 = 7.14 tokens/s.
    r = run("batching", peak_tflops=1, bandwidth_tbs=100, batch=4)
    assert r.outputs["compute_bound_batch"] == pytest.approx(0.005)
    assert r.outputs["aggregate_tokens_per_s"] == pytest.approx(1e12 / 140e9)
    assert r.conclusion.startswith("Compute-bound even for one user")
    assert r.charts[0]["layout"]["shapes"] == []  # no crossover to mark inside the chart


def test_there_are_no_cross_field_rules():
    calculator = registry.get("batching")
    assert calculator.rules(calculator.defaults) == {}


def test_the_chart_plots_both_rates_against_batch_and_marks_the_crossover():
    chart = run("batching").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["aggregate tokens/s", "per-user tokens/s", "this batch (aggregate)", "this batch (per user)"]
    aggregate, per_user, here, here_user = chart["data"]
    assert per_user["yaxis"] == "y2" and here_user["yaxis"] == "y2"
    assert "yaxis" not in aggregate
    assert here["x"] == [16] and here["y"] == [765.7]
    assert here_user["x"] == [16] and here_user["y"] == [47.86]
    assert aggregate["x"][0] == 1 and aggregate["x"][-1] > 8 * 147
    assert 147.6 in aggregate["x"]  # the corner where compute takes over
    layout = chart["layout"]
    assert layout["xaxis"]["type"] == "log"
    assert layout["yaxis"]["type"] == "log"
    assert layout["yaxis2"]["overlaying"] == "y"
    (shape,) = layout["shapes"]
    assert shape["x0"] == shape["x1"] == pytest.approx(147.612, abs=1e-3)
    (note,) = layout["annotations"]
    assert note["x"] == pytest.approx(math.log10(147.612), abs=1e-4)
    assert note["text"] == "compute-bound from batch ≈ 148"


def test_with_kv_reads_the_chart_adds_the_weights_only_curve_and_no_crossover():
    chart = run("batching", context_tokens=4096).charts[0]
    assert "aggregate, weights read only" in [trace["name"] for trace in chart["data"]]
    assert chart["layout"]["shapes"] == []


def test_a_crossover_too_large_for_a_float_is_explained_as_never_reached():
    # 1e-306 B active parameters: 2e-297 FLOPs ÷ 989e12 FLOP/s ≈ 2e-309 s a user, and with no cache to read the
    # crossover 20.9 ms ÷ 2e-309 s overflows to infinity, which the outputs report as null.
    r = run("batching", active_params_b=1e-306, context_tokens=0)
    assert r.outputs["compute_bound_reachable"] is True
    assert r.outputs["compute_bound_batch"] is None
    assert "larger than any number a float holds: in practice never" in text(r)
