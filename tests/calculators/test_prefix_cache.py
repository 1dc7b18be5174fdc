import pytest

from calculators.engine import registry
from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("prefix-cache").outputs
    assert o["prompt_tokens_per_day"] == 30_000_000
    assert o["cost_without_cache"] == pytest.approx(90.00, abs=1e-9)
    assert o["cost_hits"] == pytest.approx(7.20, abs=1e-9)
    assert o["cost_misses"] == pytest.approx(18.00, abs=1e-9)
    assert o["cost_with_cache"] == pytest.approx(25.20, abs=1e-9)
    assert o["saving_per_day"] == pytest.approx(64.80, abs=1e-9)


def test_extra_outputs_at_the_defaults():
    o = run("prefix-cache").outputs
    assert o["hit_tokens_per_day"] == pytest.approx(24e6)
    assert o["miss_tokens_per_day"] == pytest.approx(6e6)
    assert o["effective_price_per_mtok"] == pytest.approx(0.84)
    assert o["costs_without_cache"] is True
    assert o["saving_share"] == pytest.approx(0.72)


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("prefix-cache"))
    for figure in [
        "20,000 requests × 1,500 tokens = 30 million prompt tokens a day",
        "30 million ÷ 1 million × $3.00 = $90.00 a day",
        "80 % of them are hits, 24 million tokens at $0.30 per million: $7.20",
        "6 million × $3.00 per million = $18.00",
        "$7.20 + $18.00 = $25.20 a day",
        "$90.00 − $25.20 = $64.80 a day",
        "rolling history",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "The same 30 million tokens cost $25.20 a day instead of $90.00: the share of tokens that hit, "
        "not how many you send, sets the bill."
    )


def test_a_rolling_per_user_history_saves_almost_nothing():
    # 30 M tokens, 2 % hits: hits 0.6 M × $0.30 = $0.18; misses 29.4 M × $3.00 = $88.20;
    # with cache $88.38, saving $1.62.
    r = run("prefix-cache", hit_rate=0.02)
    o = r.outputs
    assert o["cost_hits"] == pytest.approx(0.18)
    assert o["cost_misses"] == pytest.approx(88.20)
    assert o["cost_with_cache"] == pytest.approx(88.38)
    assert o["saving_per_day"] == pytest.approx(1.62)
    assert "A hit rate this low" in text(r)


def test_a_big_shared_document_at_a_high_hit_rate():
    # 1,000,000 requests × 8,000 tokens = 8e9 tokens. Without: 8,000 × $2.50 = $20,000.
    # 95 % hits: 7.6e9 × $0.25/M = $1,900; misses 4e8 × $2.50/M = $1,000; with $2,900; saving $17,100.
    o = run(
        "prefix-cache",
        requests_per_day=1_000_000,
        shared_tokens=8000,
        price_per_mtok=2.5,
        cached_price_per_mtok=0.25,
        hit_rate=0.95,
    ).outputs
    assert o["prompt_tokens_per_day"] == 8_000_000_000
    assert o["cost_without_cache"] == pytest.approx(20_000)
    assert o["cost_hits"] == pytest.approx(1_900)
    assert o["cost_misses"] == pytest.approx(1_000)
    assert o["cost_with_cache"] == pytest.approx(2_900)
    assert o["saving_per_day"] == pytest.approx(17_100)


def test_half_price_cache_at_half_hits():
    # 500 × 200 = 100,000 tokens; without 0.1 × $10 = $1.00.
    # hits 50,000 × $5/M = $0.25; misses 50,000 × $10/M = $0.50; with $0.75; saving $0.25 (25 %).
    o = run(
        "prefix-cache",
        requests_per_day=500,
        shared_tokens=200,
        price_per_mtok=10,
        cached_price_per_mtok=5,
        hit_rate=0.5,
    ).outputs
    assert o["cost_without_cache"] == pytest.approx(1.0)
    assert o["cost_with_cache"] == pytest.approx(0.75)
    assert o["saving_per_day"] == pytest.approx(0.25)
    assert o["saving_share"] == pytest.approx(0.25)


def test_no_hits_means_no_saving():
    r = run("prefix-cache", hit_rate=0)
    assert r.outputs["cost_hits"] == 0
    assert r.outputs["cost_with_cache"] == pytest.approx(90.0)
    assert r.outputs["saving_per_day"] == pytest.approx(0.0)
    t = text(r)
    assert "All of them miss" in t
    assert "so it saves nothing" in t


def test_every_token_hitting_pays_only_the_cached_price():
    # 30 M × $0.30/M = $9.00; saving $81.00.
    r = run("prefix-cache", hit_rate=1)
    assert r.outputs["cost_misses"] == 0
    assert r.outputs["cost_with_cache"] == pytest.approx(9.0)
    assert r.outputs["saving_per_day"] == pytest.approx(81.0)
    assert "Every token hits" in text(r)


def test_no_requests_means_nothing_to_cache_and_no_saving_share():
    r = run("prefix-cache", requests_per_day=0)
    o = r.outputs
    assert o["prompt_tokens_per_day"] == 0
    assert o["cost_without_cache"] == 0
    assert o["cost_with_cache"] == 0
    assert o["costs_without_cache"] is False
    assert o["saving_share"] is None
    assert "nothing to cache" in text(r)


def test_a_cached_token_dearer_than_a_fresh_one_costs_money():
    # hits 24 M × $5/M = $120; misses $18; with $138: $48 more than $90.
    r = run("prefix-cache", cached_price_per_mtok=5)
    assert r.outputs["saving_per_day"] == pytest.approx(-48.0)
    assert "$48.00 a day more than without it" in text(r)


def test_free_prompt_tokens_leave_the_saving_share_undefined():
    o = run("prefix-cache", price_per_mtok=0).outputs
    assert o["cost_without_cache"] == 0
    assert o["saving_share"] is None


def test_the_largest_inputs_stay_finite():
    o = run("prefix-cache", requests_per_day=1e10, shared_tokens=10_000_000, price_per_mtok=10_000).outputs
    assert all(value is not None for key, value in o.items())


def test_it_has_no_cross_field_rules():
    calculator = registry.get("prefix-cache")
    assert calculator.rules(calculator.defaults) == {}


def test_the_chart_shades_the_saving_and_marks_the_current_hit_rate():
    chart = run("prefix-cache").charts[0]
    names = [trace["name"] for trace in chart["data"]]
    assert names == ["without the cache", "with the cache (gap shaded)", "this setting"]
    without, with_cache, point = chart["data"]
    assert set(without["y"]) == {90.0}
    assert with_cache["fill"] == "tonexty"
    assert with_cache["x"][0] == 0 and with_cache["x"][-1] == 1
    assert with_cache["y"][0] == pytest.approx(90.0) and with_cache["y"][-1] == pytest.approx(9.0)
    assert 32 <= len(with_cache["x"]) <= 64
    assert point["x"] == [0.8]
    assert point["y"] == [25.2]
    assert chart["layout"]["xaxis"]["type"] == "linear"
    assert chart["layout"]["shapes"][0]["x0"] == 0.8
