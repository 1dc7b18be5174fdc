import orjson
import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text

KIB, MIB, GIB = 2**10, 2**20, 2**30


def test_defaults_give_the_banks_figures():
    o = run("paged-attention").outputs
    assert o["reserved_bytes_per_request"] == 640 * MIB
    assert o["reserved_bytes_total"] == 6.25 * GIB
    assert o["used_bytes_per_request"] == 187.5 * MIB
    assert o["utilization"] == 1200 / 4096
    assert o["max_tail_waste_bytes"] == 15 * 160 * KIB
    assert o["paged_bytes_per_request"] == 75 * 16 * 160 * KIB
    assert o["capacity_gain"] == pytest.approx(4096 / 1200)
    assert o["blocks_per_request"] == 75
    assert o["requests_in_same_memory"] == 34


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("paged-attention"))
    for figure in [
        "4,096 tokens × 160 KiB = 640 MiB per request",
        "10 × 640 MiB = 6.25 GiB",
        "1,200 × 160 KiB = 187.5 MiB",
        "1,200 ÷ 4,096 = 29 %",
        "71 % of each reservation sits idle",
        "16-token blocks",
        "15 × 160 KiB = 2.34 MiB",
        "640 MiB ÷ 187.5 MiB = 3.41×",
        "now holds 34 requests",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "Growing the cache block by block cuts waste from 71 % of each reservation to at most one part-filled "
        "block, so 3.41× as many requests fit in the same memory."
    )


def test_a_context_that_ends_inside_a_block():
    # ceil(1,210 / 16) = 76 blocks = 1,216 tokens × 160 KiB = 194,560 KiB = 190 MiB; the tail holds 6 empty slots
    # = 960 KiB. Gain 4,096 / 1,216 = 3.368.
    r = run("paged-attention", mean_context=1210)
    o = r.outputs
    assert o["blocks_per_request"] == 76
    assert o["paged_bytes_per_request"] == 190 * MIB
    assert o["tail_waste_bytes"] == 960 * KIB
    assert o["capacity_gain"] == pytest.approx(4096 / 1216)
    assert "has 6 empty slots (960 KiB)" in text(r)


def test_an_8b_model_at_8k_context_with_32_token_blocks():
    # 128 KiB per token × 8,192 = 1 GiB reserved; 50 requests = 50 GiB.
    # 3,000 tokens = 375 MiB used; ceil(3,000 / 32) = 94 blocks = 3,008 tokens = 376 MiB paged.
    # 50 GiB / 376 MiB = 51,200 / 376 = 136.2 → 136 requests; gain 8,192 / 3,008 = 2.723.
    o = run(
        "paged-attention", max_context=8192, mean_context=3000, kv_bytes_per_token=131_072, requests=50, block_tokens=32
    ).outputs
    assert o["reserved_bytes_per_request"] == GIB
    assert o["reserved_bytes_total"] == 50 * GIB
    assert o["used_bytes_per_request"] == 375 * MIB
    assert o["paged_bytes_per_request"] == 376 * MIB
    assert o["max_tail_waste_bytes"] == 31 * 128 * KIB
    assert o["requests_in_same_memory"] == 136
    assert o["capacity_gain"] == pytest.approx(8192 / 3008)


def test_blocks_bigger_than_the_window_waste_more_than_the_slab():
    # One 8,192-token block = 8,192 × 160 KiB = 1,280 MiB against a 640 MiB slab: gain 0.5.
    r = run("paged-attention", block_tokens=8192)
    assert r.outputs["paged_bytes_per_request"] == 1280 * MIB
    assert r.outputs["capacity_gain"] == 0.5
    assert "so large" in text(r)
    assert r.conclusion.startswith("Blocks must be small")


def test_one_token_blocks_waste_nothing():
    r = run("paged-attention", block_tokens=1)
    assert r.outputs["max_tail_waste_bytes"] == 0
    assert r.outputs["paged_bytes_per_request"] == r.outputs["used_bytes_per_request"]
    assert "no tail waste" in text(r)


def test_a_full_window_leaves_nothing_for_paging_to_win():
    r = run("paged-attention", mean_context=4096)
    assert r.outputs["utilization"] == 1
    assert r.outputs["capacity_gain"] == 1
    assert "wastes nothing" in text(r)
    assert r.conclusion.startswith("Paging buys nothing")


def test_the_largest_inputs_stay_plain_json_numbers():
    # 10⁷ tokens × 10⁹ bytes × 10⁶ requests = 10²²: past a 64-bit integer, so it must be a float.
    r = run(
        "paged-attention",
        max_context=10_000_000,
        mean_context=10_000_000,
        kv_bytes_per_token=1_000_000_000,
        requests=1_000_000,
        block_tokens=65_536,
    )
    assert r.outputs["reserved_bytes_total"] == 1e22
    orjson.dumps(r.as_json())


def test_the_mean_context_cannot_exceed_the_maximum():
    calculator = registry.get("paged-attention")
    values = dict(calculator.defaults)
    broken = calculator.rules({**values, "mean_context": 5000})
    assert list(broken) == ["mean_context"]
    assert "5,000 tokens" in broken["mean_context"][0] and "4,096 tokens" in broken["mean_context"][0]
    assert calculator.rules({**values, "mean_context": 4096}) == {}
    assert calculator.rules(values) == {}


def test_the_chart_stacks_used_and_wasted_memory_for_each_scheme():
    chart = run("paged-attention", mean_context=1210).charts[0]
    names = [t["name"] for t in chart["data"]]
    assert names == ["holding keys and values", "reserved, never filled", "empty slots in the last block"]
    used, idle, tail = chart["data"]
    assert used["x"] == ["reserved for the worst case", "paged, 16-token blocks"]
    assert used["y"] == [189.1, 189.1]  # 1,210 × 160 KiB = 189.06 MiB
    assert idle["y"] == [450.9, 0]
    assert tail["y"] == [0, 0.9375]  # 6 empty slots × 160 KiB = 960 KiB
    layout = chart["layout"]
    assert layout["barmode"] == "stack"
    assert layout["xaxis"]["type"] == "category"
    assert layout["yaxis"]["type"] == "linear"
    assert layout["yaxis"]["title"]["text"] == "KV cache per request (MiB)"
    assert [a["text"] for a in layout["annotations"]] == ["640 MiB (30 % used)", "190 MiB (99.5 % used)"]
    assert [a["y"] for a in layout["annotations"]] == [640, 190]


def test_tiny_caches_are_charted_in_bytes():
    chart = run("paged-attention", max_context=4, mean_context=3, kv_bytes_per_token=1, block_tokens=2).charts[0]
    assert chart["layout"]["yaxis"]["title"]["text"] == "KV cache per request (bytes)"
    assert chart["data"][0]["y"] == [3, 3]
