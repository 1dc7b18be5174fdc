import pytest

from tests.calculators.helpers import run, text


def test_defaults_give_the_banks_figures():
    o = run("speculative-decoding").outputs
    assert o["expected_tokens_per_pass"] == pytest.approx(1 + 0.7 + 0.49 + 0.343)
    assert o["ideal_tokens_per_s"] == pytest.approx(24 * 2.533)
    assert o["round_cost_target_steps"] == pytest.approx(1.6)
    assert o["speedup"] == pytest.approx(2.533 / 1.6)
    assert o["tokens_per_s"] == pytest.approx(37.995)
    assert o["best_draft_tokens"] == 3
    assert o["faster"] is True


def test_worked_answer_at_the_defaults_shows_each_figure():
    t = text(run("speculative-decoding"))
    for figure in [
        "1 + 0.7 + 0.49 + 0.343 = 2.53 tokens",
        "24 × 2.53 = 60.8 tokens/s",
        "3 × 0.2 + 1 = 1.6",
        "2.53 ÷ 1.6 = 1.58×",
        "24 tokens/s × 1.58 = 38.0 tokens/s",
        "scores every token that is shipped",
        "1 ÷ (1 − 0.7) = 3.33 tokens",
    ]:
        assert figure in t
    assert t.splitlines()[-1] == (
        "Drafting 3 tokens at acceptance 0.7 lifts decode from 24 tokens/s to about 38.0 tokens/s (1.58×), "
        "and the output is unchanged because the target model still decides every token."
    )


def test_a_good_draft_with_five_tokens():
    # (1 − 0.8⁶) / 0.2 = (1 − 0.262144) / 0.2 = 3.68928 tokens; round 5 × 0.1 + 1 = 1.5; speedup 2.45952;
    # 24 × 2.45952 = 59.03 tokens/s.
    o = run("speculative-decoding", acceptance_rate=0.8, draft_tokens=5, draft_cost_ratio=0.1).outputs
    assert o["expected_tokens_per_pass"] == pytest.approx(3.68928)
    assert o["speedup"] == pytest.approx(2.45952)
    assert o["tokens_per_s"] == pytest.approx(59.02848)


def test_a_draft_that_just_pays_for_itself():
    # a = 0.5, k = 1: 1 + 0.5 = 1.5 tokens; round 1 × 0.5 + 1 = 1.5; speedup exactly 1 → 100 tokens/s.
    r = run(
        "speculative-decoding", acceptance_rate=0.5, draft_tokens=1, draft_cost_ratio=0.5, baseline_tokens_per_s=100
    )
    assert r.outputs["expected_tokens_per_pass"] == pytest.approx(1.5)
    assert r.outputs["speedup"] == pytest.approx(1)
    assert r.outputs["tokens_per_s"] == pytest.approx(100)
    assert "no gain" in text(r)


def test_a_well_matched_cheap_draft():
    # (1 − 0.9⁹) / 0.1 = (1 − 0.387420489) / 0.1 = 6.12579511; round 8 × 0.05 + 1 = 1.4; speedup 4.37557;
    # 30 × 4.37557 = 131.27 tokens/s.
    o = run(
        "speculative-decoding", acceptance_rate=0.9, draft_tokens=8, draft_cost_ratio=0.05, baseline_tokens_per_s=30
    ).outputs
    assert o["expected_tokens_per_pass"] == pytest.approx(6.12579511)
    assert o["speedup"] == pytest.approx(6.12579511 / 1.4)
    assert o["tokens_per_s"] == pytest.approx(30 * 6.12579511 / 1.4)
    assert o["max_tokens_per_pass"] == pytest.approx(10)


def test_acceptance_zero_gives_one_token_per_pass():
    # Every draft rejected: 1 token per pass; speedup 1 / (3 × 0.2 + 1) = 0.625.
    r = run("speculative-decoding", acceptance_rate=0)
    assert r.outputs["expected_tokens_per_pass"] == 1
    assert r.outputs["speedup"] == pytest.approx(0.625)
    assert r.outputs["faster"] is False
    assert "At acceptance 0 every drafted token is rejected" in text(r)
    assert r.conclusion.startswith("At acceptance 0 the draft costs more than it saves (0.625×)")


def test_the_highest_acceptance_and_longest_draft_stay_finite():
    # (1 − 0.99⁶⁵) / 0.01 = 47.97; the ceiling 1 / 0.01 = 100.
    r = run("speculative-decoding", acceptance_rate=0.99, draft_tokens=64)
    assert r.outputs["expected_tokens_per_pass"] == pytest.approx((1 - 0.99**65) / 0.01)
    assert r.outputs["max_tokens_per_pass"] == pytest.approx(100)
    assert "… + 0.99⁶⁴ = 48.0 tokens" in text(r)


def test_a_free_draft_always_prefers_the_longest_draft():
    r = run("speculative-decoding", draft_cost_ratio=0)
    assert r.outputs["speedup"] == r.outputs["expected_tokens_per_pass"]
    assert r.outputs["best_draft_tokens"] == 64
    assert "With a free draft" in text(r)


def test_the_best_draft_length_is_named_when_it_differs():
    # a = 0.3, r = 0.2: k = 1 gives 1.3 / 1.2 = 1.083×, k = 3 gives 1.417 / 1.6 = 0.886×.
    r = run("speculative-decoding", acceptance_rate=0.3)
    assert r.outputs["best_draft_tokens"] == 1
    assert r.outputs["best_speedup"] == pytest.approx(1.3 / 1.2)
    assert "drafting 1 token would do best (1.08×)" in text(r)


def test_the_chart_marks_this_setting_on_the_curves():
    chart = run("speculative-decoding").charts[0]
    names = [t["name"] for t in chart["data"]]
    assert names == [
        "acceptance 0.5",
        "acceptance 0.6",
        "acceptance 0.7 (yours)",
        "acceptance 0.8",
        "acceptance 0.9",
        "acceptance 0.7, speedup after draft cost",
        "this setting",
        "plain decoding: 1 token per pass, 1×",
    ]
    curve = chart["data"][2]
    assert curve["x"][:3] == [1, 2, 3] and curve["x"][-1] == 16
    assert curve["y"][2] == 2.533
    here = chart["data"][6]
    assert here["x"] == [3, 3]
    assert here["y"] == [2.533, 1.583]
    assert chart["layout"]["xaxis"]["type"] == "linear"
    assert chart["layout"]["yaxis"]["type"] == "linear"


def test_an_unlisted_acceptance_rate_gets_its_own_curve_and_a_long_draft_widens_the_axis():
    chart = run("speculative-decoding", acceptance_rate=0.75, draft_tokens=20).charts[0]
    names = [t["name"] for t in chart["data"]]
    assert "acceptance 0.75 (yours)" in names
    assert "acceptance 0.7" in names
    assert chart["data"][0]["x"][-1] == 20
