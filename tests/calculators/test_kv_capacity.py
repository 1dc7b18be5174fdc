import pytest

from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("kv-capacity").outputs
    assert o["kv_bytes_per_token"] == 160 * 1024
    assert o["kv_bytes_per_user"] == 640 * 2**20
    assert o["users_exact"] == pytest.approx(14.4)
    assert o["users"] == 14


def test_8_bit_kv_doubles_the_users():
    o = run("kv-capacity", kv_bytes=1).outputs
    assert o["kv_bytes_per_token"] == 80 * 1024
    assert o["users_exact"] == pytest.approx(28.8)
    assert o["users"] == 28


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("kv-capacity"))
    for figure in [
        "2 × 40 layers × 8 KV heads × 128 dims × 2 bytes = 163,840 bytes = 160 KiB per token",
        "4,096 × 160 KiB = 640 MiB",
        "9 GiB free after the weights ÷ 0.625 GiB per user = 14.4 users",
        "14 users fit",
        "28.8 users: from about 14 to about 29",
    ]:
        assert figure in t


def test_llama_3_8b_shape_at_8k_context():
    # 32 layers, 8 KV heads, 128 dims, 16-bit: 2·32·8·128·2 = 131,072 B = 128 KiB per token.
    # 8,192 tokens → 1 GiB per user; 40 GiB free → 40 users.
    o = run("kv-capacity", layers=32, kv_heads=8, head_dim=128, kv_bytes=2, context_tokens=8192, free_gib=40).outputs
    assert o["kv_bytes_per_token"] == 131_072
    assert o["kv_bytes_per_user"] == 2**30
    assert o["users"] == 40


def test_4_bit_kv_with_a_long_context_leaves_room_for_one_user():
    # 2·80·8·128·0.5 = 81,920 B per token; × 128,000 = 10,485,760,000 B = 9.766 GiB; 20 GiB → 2.048.
    o = run("kv-capacity", layers=80, kv_bytes=0.5, context_tokens=128_000, free_gib=20).outputs
    assert o["kv_bytes_per_token"] == 81_920
    assert o["users_exact"] == pytest.approx(20 * 2**30 / 10_485_760_000)
    assert o["users"] == 2


def test_too_little_memory_for_one_user_gives_zero():
    o = run("kv-capacity", free_gib=0.5).outputs
    assert o["users_exact"] == pytest.approx(0.8)
    assert o["users"] == 0


def test_the_chart_has_a_curve_per_precision_and_marks_the_current_point():
    chart = run("kv-capacity").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["16-bit KV", "8-bit KV", "4-bit KV", "this setting"]
    assert chart["data"][-1]["x"] == [4096]
    assert chart["data"][-1]["y"] == [14.4]
    assert chart["layout"]["xaxis"]["type"] == "log"


def test_an_unusual_precision_gets_its_own_curve():
    names = [t["name"] for t in run("kv-capacity", kv_bytes=1.5).charts[0]["data"]]
    assert "12-bit KV (yours)" in names


def test_one_user_is_written_in_the_singular():
    from calculators.engine import registry

    result = registry.get("kv-capacity").run({**registry.get("kv-capacity").defaults, "context_tokens": 32768})
    assert "Round down: 1 user fits at this context length." in result.steps[3]
    assert result.conclusion.startswith("1 user at 32,768 tokens each")


def test_the_exact_user_count_is_never_rounded_up_past_the_whole_users_that_fit():
    from calculators.engine import registry

    calc = registry.get("kv-capacity")
    result = calc.run({**calc.defaults, "layers": 80, "free_gib": 36.2})
    assert "36.2 GiB free after the weights ÷ 1.25 GiB per user = 28.96 users." in result.steps[2]
    assert result.steps[3].startswith("Round down: 28 users fit")


def test_the_first_step_says_kv_heads_not_attention_heads():
    from calculators.engine import registry

    calc = registry.get("kv-capacity")
    assert "Count KV heads, not attention heads" in calc.run(calc.defaults).steps[0]
