"""The public contract (shared/calculators.md): slugs, parameter names,
defaults and bounds are what users share in links. They must not drift."""

import pytest

from calculators.engine import registry

N = None  # the contract leaves this bound to us
CONTRACT = {
    "prefill-decode": {
        "params_b": (70, 0.1, 5000),
        "bytes_per_param": (2, 0.25, 4),
        "prompt_tokens": (2000, 1, 2_000_000),
        "output_tokens": (500, 1, 1_000_000),
        "peak_tflops": (989, 1, 100_000),
        "bandwidth_tbs": (3.35, 0.01, 100),
    },
    "kv-capacity": {
        "layers": (40, 1, 1024),
        "kv_heads": (8, 1, 1024),
        "head_dim": (128, 1, 4096),
        "kv_bytes": (2, 0.5, 4),
        "context_tokens": (4096, 1, 10_000_000),
        "free_gib": (9, 0.01, 100_000),
    },
    "batching": {
        "params_b": (70, N, N),
        "bytes_per_param": (1, N, N),
        "bandwidth_tbs": (3.35, N, N),
        "peak_tflops": (989, N, N),
        "batch": (16, 1, 100_000),
        "context_tokens": (0, 0, 10_000_000),
        "kv_bytes_per_token": (163840, 0, 1e9),
    },
    "continuous-batching": {
        "slots": (8, 1, 100_000),
        "window_s": (25, 1, 1_000_000),
        "tokens_per_s": (40, 0.1, 100_000),
        "response_tokens": (500, 1, 10_000_000),
        "longest_tokens": (1000, N, N),
    },
    "paged-attention": {
        "max_context": (4096, 1, 10_000_000),
        "mean_context": (1200, N, N),
        "kv_bytes_per_token": (163840, 1, 1e9),
        "requests": (10, 1, 1_000_000),
        "block_tokens": (16, 1, 65536),
    },
    "prefix-cache": {
        "requests_per_day": (20000, 0, 1e10),
        "shared_tokens": (1500, 0, 10_000_000),
        "price_per_mtok": (3.00, 0, 10000),
        "cached_price_per_mtok": (0.30, N, N),
        "hit_rate": (0.8, 0, 1),
    },
    "speculative-decoding": {
        "acceptance_rate": (0.7, 0, 0.99),
        "draft_tokens": (3, 1, 64),
        "baseline_tokens_per_s": (24, 0.1, 100_000),
        "draft_cost_ratio": (0.2, 0, 1),
    },
    "roofline": {
        "peak_tflops": (989, N, N),
        "bandwidth_tbs": (3.35, N, N),
        "params_b": (70, N, N),
        "bytes_per_param": (2, N, N),
        "prefill_tokens": (2000, 1, 10_000_000),
        "decode_batch": (1, 1, 100_000),
    },
    "queueing": {
        "slots": (16, 1, 10000),
        "arrival_rate_per_s": (1.0, 0, 1e6),
        "mean_request_s": (12.5, 0.001, 1e5),
        "prefill_s": (0.28, 0, 1e4),
    },
    "autoscaling": {
        "arrival_rate_per_s": (20, N, N),
        "request_s": (4, N, N),
        "slots_per_replica": (16, N, N),
        "target_utilization": (0.7, 0.01, 1),
        "cold_start_s": (300, N, N),
        "growth_per_min": (0.05, N, N),
        "replica_cost_per_hour": (4.0, N, N),
    },
    "latency-budget": {
        "budget_ms": (50, N, N),
        "network_ms": (5, N, N),
        "feature_fetches": (3, 0, 1000),
        "fetch_ms": (12, N, N),
        "parallel": (0, 0, 1),
        "cache_hit_rate": (0, 0, 1),
        "cache_ms": (1, N, N),
        "model_ms": (15, N, N),
    },
    "cost-per-prediction": {
        "hourly_cost": (4.0, N, N),
        "capacity_per_s": (50, N, N),
        "utilization": (0.3, 0.001, 1),
        "feature_reads": (3, N, N),
        "feature_read_cost": (0.000001, N, N),
        "calls_per_prediction": (1.0, 1, 100),
    },
}
# Inputs beyond the contract, which it allows when their defaults leave the required outputs unchanged.
EXTRA = {
    "prefill-decode": {"active_params_b": (0, 0, 5000)},
    "batching": {"active_params_b": (0, 0, 5000)},
    "roofline": {"active_params_b": (0, 0, 5000)},
}
REQUIRED_OUTPUTS = {
    "prefill-decode": [
        "flops_per_token",
        "prefill_flops",
        "prefill_s",
        "weight_bytes",
        "decode_tokens_per_s",
        "inter_token_s",
        "response_s",
    ],
    "kv-capacity": ["kv_bytes_per_token", "kv_bytes_per_user", "users_exact", "users"],
    "batching": [
        "weight_bytes",
        "step_s",
        "per_user_tokens_per_s",
        "aggregate_tokens_per_s",
        "single_user_tokens_per_s",
    ],
    "continuous-batching": [
        "capacity_tokens",
        "static_batch_s",
        "static_completed",
        "continuous_completed",
        "static_slot_utilization",
    ],
    "paged-attention": [
        "reserved_bytes_per_request",
        "reserved_bytes_total",
        "used_bytes_per_request",
        "utilization",
        "max_tail_waste_bytes",
        "paged_bytes_per_request",
        "capacity_gain",
    ],
    "prefix-cache": [
        "prompt_tokens_per_day",
        "cost_without_cache",
        "cost_hits",
        "cost_misses",
        "cost_with_cache",
        "saving_per_day",
    ],
    "speculative-decoding": ["expected_tokens_per_pass", "ideal_tokens_per_s", "speedup", "tokens_per_s"],
    "roofline": [
        "ridge_flops_per_byte",
        "decode_intensity",
        "prefill_intensity",
        "decode_attainable_tflops",
        "prefill_attainable_tflops",
        "decode_tokens_per_s",
        "ridge_gap",
    ],
    "queueing": ["utilization", "stable", "prob_wait", "mean_wait_s", "mean_queue_length", "p95_wait_s", "p95_ttft_s"],
    "autoscaling": [
        "in_flight",
        "replicas_needed",
        "arrival_after_cold_start_per_s",
        "replicas_to_keep_warm",
        "warm_headroom_replicas",
        "headroom_cost_per_hour",
    ],
    "latency-budget": ["fetch_total_ms", "total_ms", "headroom_ms", "fits", "model_timeout_ms"],
    "cost-per-prediction": [
        "predictions_per_hour",
        "serving_cost_per_call",
        "cost_per_prediction",
        "cost_per_million",
        "fixed_share",
    ],
}


def test_there_are_exactly_the_twelve_contract_calculators_in_order():
    assert [c.slug for c in registry.all_calculators()] == list(CONTRACT)


@pytest.mark.parametrize("slug", CONTRACT)
def test_each_calculator_has_the_contract_parameters_defaults_and_bounds(slug):
    calculator = registry.get(slug)
    params = {p.name: p for p in calculator.params}
    assert [name for name in params if name in CONTRACT[slug]] == list(CONTRACT[slug])
    assert {name for name in params if name not in CONTRACT[slug]} == set(EXTRA.get(slug, {}))
    for name, (default, low, high) in {**CONTRACT[slug], **EXTRA.get(slug, {})}.items():
        p = params[name]
        assert p.default == default, name
        if low is not None:
            assert p.minimum == low, name
        if high is not None:
            assert p.maximum == high, name
        assert p.minimum <= p.default <= p.maximum, name
        assert p.slider_low >= p.minimum and p.slider_high <= p.maximum, name
        assert p.label and p.unit is not None, name


@pytest.mark.parametrize("slug", CONTRACT)
def test_each_calculator_returns_every_required_output(slug):
    calculator = registry.get(slug)
    outputs = calculator.run(calculator.defaults).outputs
    missing = [name for name in REQUIRED_OUTPUTS[slug] if name not in outputs]
    assert missing == []


@pytest.mark.parametrize("slug", CONTRACT)
def test_each_calculator_has_a_worked_answer_and_at_least_one_chart(slug):
    calculator = registry.get(slug)
    result = calculator.run(calculator.defaults)
    assert len(result.steps) >= 3
    assert result.conclusion
    assert result.charts
    assert all(h.name in result.outputs for h in calculator.headlines)
