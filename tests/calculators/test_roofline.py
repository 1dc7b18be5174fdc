import math

import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("roofline").outputs
    assert o["weight_bytes"] == 140e9
    assert o["ridge_flops_per_byte"] == pytest.approx(295.224, abs=1e-3)
    assert o["decode_intensity"] == 1
    assert o["prefill_intensity"] == 2000
    assert o["decode_attainable_tflops"] == pytest.approx(3.35)
    assert o["prefill_attainable_tflops"] == 989
    assert o["decode_tokens_per_s"] == pytest.approx(23.929, abs=1e-3)
    assert o["ridge_gap"] == pytest.approx(295.224, abs=1e-3)
    assert o["decode_memory_bound"] is True
    assert o["prefill_compute_bound"] is True


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("roofline"))
    for figure in [
        "989 TFLOP/s ÷ 3.35 TB/s = 295 FLOP/byte",
        "70 billion parameters × 2 bytes = 140 GB",
        "140 GFLOPs ÷ 140 GB = 1 FLOP/byte",
        "2,000 × 140 GFLOPs ÷ 140 GB = 2,000 FLOP/byte, past the ridge",
        "min(989, 1 × 3.35) = 3.35 TFLOP/s, 0.34 % of the peak",
        "3.35 TB/s ÷ 140 GB = 23.9 tokens/s",
        "295 ÷ 1 = about 295× below the ridge",
        "a batch of about 295 users",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "Decode at 1 FLOP/byte is memory-bound, about 295× below the 295 FLOP/byte ridge; "
        "prefill at 2,000 FLOP/byte is compute-bound."
    )


def test_8_bit_weights_double_decode_intensity_and_speed():
    # 70 GB of weights: decode 2 / 1 = 2 FLOP/byte, prefill 2 × 2,000 / 1 = 4,000.
    # 3.35e12 / 70e9 = 47.86 tokens/s; gap 295.22 / 2 = 147.6; attainable 2 × 3.35 = 6.7 TFLOP/s.
    o = run("roofline", bytes_per_param=1).outputs
    assert o["decode_intensity"] == 2
    assert o["prefill_intensity"] == 4000
    assert o["decode_attainable_tflops"] == pytest.approx(6.7)
    assert o["decode_tokens_per_s"] == pytest.approx(47.857, abs=1e-3)
    assert o["ridge_gap"] == pytest.approx(147.612, abs=1e-3)


def test_a_batch_of_16_shares_the_read_and_climbs_the_roof():
    # Intensity 2 × 16 / 2 = 16 FLOP/byte → 16 × 3.35 = 53.6 TFLOP/s.
    # Step: 140 GB / 3.35 TB/s = 41.79 ms (arithmetic 16 × 140e9 / 989e12 = 2.26 ms is less),
    # so 16 / 41.79 ms = 382.9 tokens/s in all; gap 295.22 / 16 = 18.45.
    r = run("roofline", decode_batch=16)
    o = r.outputs
    assert o["decode_intensity"] == 16
    assert o["decode_attainable_tflops"] == pytest.approx(53.6)
    assert o["decode_tokens_per_s"] == pytest.approx(382.857, abs=1e-3)
    assert o["ridge_gap"] == pytest.approx(18.4515, abs=1e-4)
    assert "16 × 140 GFLOPs ÷ 140 GB = 16 FLOP/byte" in text(r)
    assert "16 users make 16 ÷ 41.8 ms = 383 tokens/s in all" in text(r)


def test_an_8b_model_on_an_a100_with_a_short_prompt_stays_below_the_ridge():
    # Ridge 312 / 2.04 = 152.94 FLOP/byte. Prefill of 100 tokens at 2 bytes: 2 × 100 / 2 = 100 FLOP/byte,
    # below the ridge, so 100 × 2.04 = 204 TFLOP/s. Decode 2.04e12 / 16e9 = 127.5 tokens/s.
    r = run("roofline", peak_tflops=312, bandwidth_tbs=2.04, params_b=8, prefill_tokens=100)
    o = r.outputs
    assert o["ridge_flops_per_byte"] == pytest.approx(152.941, abs=1e-3)
    assert o["prefill_intensity"] == 100
    assert o["prefill_attainable_tflops"] == pytest.approx(204)
    assert o["prefill_compute_bound"] is False
    assert o["decode_tokens_per_s"] == pytest.approx(127.5)
    assert "still short of the ridge" in text(r)
    assert r.conclusion.endswith("even prefill at 100 FLOP/byte is memory-bound here.")


def test_a_batch_past_the_ridge_makes_decode_compute_bound():
    # 2 × 1,000 / 2 = 1,000 FLOP/byte > 295: attainable = 989 TFLOP/s.
    # Step 1,000 × 140e9 / 989e12 = 141.6 ms → 1,000 / 0.1416 = 7,064 tokens/s; gap 295.22 / 1,000 = 0.295.
    r = run("roofline", decode_batch=1000)
    o = r.outputs
    assert o["decode_memory_bound"] is False
    assert o["decode_attainable_tflops"] == 989
    assert o["decode_tokens_per_s"] == pytest.approx(989e12 / 140e9)
    assert o["ridge_gap"] == pytest.approx(0.295224, abs=1e-6)
    assert "1,000 ÷ 295 = 3.39× the ridge intensity" in text(r)
    assert "batching is what moves decode from memory-bound to compute-bound" in r.conclusion


def test_a_chip_whose_ridge_is_below_one_user_is_compute_bound_even_at_batch_one():
    # Ridge 1 / 100 = 0.01 FLOP/byte; decode 1 FLOP/byte is 100× past it; 1e12 / 140e9 = 7.14 tokens/s.
    r = run("roofline", peak_tflops=1, bandwidth_tbs=100)
    o = r.outputs
    assert o["ridge_flops_per_byte"] == pytest.approx(0.01)
    assert o["ridge_batch"] == pytest.approx(0.01)
    assert o["decode_tokens_per_s"] == pytest.approx(7.142857)
    assert "already 100× past it" in text(r)
    assert r.conclusion.startswith("With a ridge of only 0.01 FLOP/byte, even decode is compute-bound")


def test_a_one_token_prefill_sits_with_decode():
    o = run("roofline", prefill_tokens=1).outputs
    assert o["prefill_intensity"] == o["decode_intensity"] == 1
    assert o["prefill_attainable_tflops"] == o["decode_attainable_tflops"]


def test_there_are_no_cross_field_rules():
    calculator = registry.get("roofline")
    assert calculator.rules(calculator.defaults) == {}


def test_the_chart_draws_the_roof_and_places_decode_and_prefill_on_it():
    chart = run("roofline").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["roof: min(peak, intensity × bandwidth)", "decode", "prefill", "ridge point"]
    roof, decode, prefill, ridge = chart["data"]
    for x, y in zip(roof["x"], roof["y"], strict=True):
        assert y == pytest.approx(min(989, x * 3.35), rel=1e-3)
    assert 295.2 in roof["x"]  # the corner itself
    assert decode["x"] == [1] and decode["y"] == [3.35]
    assert decode["text"] == ["decode: 1 FLOP/byte, 3.35 TFLOP/s"]
    assert prefill["x"] == [2000] and prefill["y"] == [989]
    assert ridge["x"] == [295.2] and ridge["y"] == [989]
    layout = chart["layout"]
    assert layout["xaxis"]["type"] == "log" and layout["yaxis"]["type"] == "log"
    (shape,) = layout["shapes"]
    assert shape["x0"] == pytest.approx(295.224, abs=1e-3)
    (note,) = layout["annotations"]
    assert note["text"] == "ridge 295 FLOP/byte"
    assert note["x"] == pytest.approx(math.log10(295.224), abs=1e-4)
