import pytest

from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("prefill-decode").outputs
    assert o["flops_per_token"] == 140e9
    assert o["prefill_flops"] == 2.8e14
    assert o["prefill_s"] == pytest.approx(0.2831, abs=1e-4)
    assert o["weight_bytes"] == 140e9
    assert o["decode_tokens_per_s"] == pytest.approx(23.93, abs=0.01)
    assert o["inter_token_s"] == pytest.approx(1 / 23.9286, rel=1e-4)
    assert o["response_s"] == pytest.approx(0.28311 + 499 / 23.92857, rel=1e-4)


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("prefill-decode"))
    for figure in [
        "2 × 70 billion = 140 GFLOPs",
        "2,000 × 140 GFLOPs = 2.8 × 10¹⁴ FLOPs",
        "989 TFLOP/s",
        "= 0.283 s",
        "70 billion × 2 bytes = 140 GB",
        "3.35 TB/s ÷ 140 GB = 23.9 tokens/s",
        "41.8 ms",
        "499 ×",
        "21.1 s",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "A compute-bound prompt pass of 0.283 s, then memory-bound streaming at 23.9 tokens/s."
    )


def test_an_8b_model_in_8_bit_on_an_a100():
    # 8e9 params × 1 byte = 8 GB; 2.04 TB/s / 8 GB = 255 tokens/s.
    # Prefill: 1,000 tokens × 16 GFLOPs = 1.6e13 FLOPs / 312e12 = 0.05128 s.
    o = run(
        "prefill-decode",
        params_b=8,
        bytes_per_param=1,
        prompt_tokens=1000,
        output_tokens=256,
        peak_tflops=312,
        bandwidth_tbs=2.04,
    ).outputs
    assert o["weight_bytes"] == 8e9
    assert o["decode_tokens_per_s"] == pytest.approx(255)
    assert o["prefill_s"] == pytest.approx(0.051282, rel=1e-4)
    assert o["response_s"] == pytest.approx(0.051282 + 255 / 255, rel=1e-4)


def test_a_one_token_reply_ends_with_prefill():
    o = run("prefill-decode", output_tokens=1).outputs
    assert o["decode_s"] == 0
    assert o["response_s"] == o["prefill_s"]
    assert "A one-token reply is done when prefill is" in text(run("prefill-decode", output_tokens=1))


def test_a_long_prompt_makes_prefill_dominate_time_to_first_token():
    # 100,000 tokens × 140 GFLOPs = 1.4e16 FLOPs / 989e12 = 14.156 s.
    o = run("prefill-decode", prompt_tokens=100_000).outputs
    assert o["prefill_s"] == pytest.approx(14.156, abs=1e-3)
    assert o["ttft_s"] == o["prefill_s"]


def test_the_chart_is_flat_until_the_first_token_then_climbs_to_the_reply_length():
    chart = run("prefill-decode").charts[0]
    line = chart["data"][0]
    assert line["x"][:2] == [0.0, pytest.approx(0.2831, abs=1e-4)]
    assert line["y"][:2] == [0.0, 0.0]
    assert line["y"][-1] == 500
    assert line["x"][-1] == pytest.approx(21.14, abs=0.01)
