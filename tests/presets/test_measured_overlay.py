"""The H200's measurements beside the theory: present with gpu=h200, absent for every other GPU and with none."""

import pytest

from calculators.engine import registry
from calculators.engine.measured import Measured
from calculators.models import GpuPreset

MEASURED_TRACES = {
    "roofline": ["measured copy bandwidth (H200): 4.24 TB/s", "measured bf16 GEMM (H200)", "measured fp8 GEMM (H200)"],
    "batching": [
        "measured bf16, 80 × 70B-shaped layer (H200)",
        "predicted bf16 for that layer",
        "measured fp8, 80 × 70B-shaped layer (H200)",
        "predicted fp8 for that layer",
    ],
}


def names(body) -> list[str]:
    return [trace["name"] for chart in body["charts"] for trace in chart["data"]]


def api(client, slug, **query):
    response = client.get(f"/api/calculators/{slug}/", query)
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.parametrize("slug", MEASURED_TRACES)
def test_the_h200_draws_its_measured_traces(client, slug):
    assert [n for n in names(api(client, slug, gpu="h200")) if "measured" in n or "predicted" in n] == (
        MEASURED_TRACES[slug]
    )


@pytest.mark.parametrize("slug", ["roofline", "batching", "prefill-decode"])
@pytest.mark.parametrize("query", [{"gpu": "h100-sxm"}, {"gpu": "mi300x"}, {}, {"model": "llama-3-70b"}])
def test_other_gpus_and_no_gpu_show_nothing_measured(client, slug, query):
    body = api(client, slug, **query)
    assert not [n for n in names(body) if "measured" in n]
    assert not [s for s in body["steps"] if "Measured" in s]


def test_the_roofline_plots_every_measured_gemm_at_its_intensity():
    data = GpuPreset.objects.get(slug="h200").measurements
    calculator = registry.get("roofline")
    measured = Measured.from_preset(data, 989, 4.8)
    chart = calculator.run({**calculator.defaults, "bandwidth_tbs": 4.8}, measured=measured).charts[0]
    traces = {t["name"]: t for t in chart["data"]}
    bf16 = traces["measured bf16 GEMM (H200)"]
    assert len(bf16["x"]) == 30 and len(traces["measured fp8 GEMM (H200)"]["x"]) == 7
    # M=4096, N=8192: 2,048 FLOP/byte at 788.8 TFLOP/s, the best bf16 point.
    assert (2048, 788.8) in zip(bf16["x"], bf16["y"], strict=True)
    copy = traces["measured copy bandwidth (H200): 4.24 TB/s"]
    assert copy["y"][-1] == pytest.approx(989, rel=1e-3)  # the slanted roof ends at the peak: 989 / 4.241 = 233
    assert copy["x"][-1] == pytest.approx(989 / 4.240988, rel=1e-3)
    assert copy["y"][0] / copy["x"][0] == pytest.approx(4.241, rel=1e-3)


def test_the_roofline_says_how_far_the_chip_lands_from_its_datasheet(client):
    steps = api(client, "roofline", gpu="h200")["steps"]
    assert steps[-2] == (
        "Measured on one H200: copying memory reached 4.24 TB/s, 88 % of the 4.8 TB/s datasheet bandwidth; the best "
        "bf16 matrix multiply reached 789 TFLOP/s, 80 % of the 989 TFLOP/s datasheet peak, and fp8 1,410 TFLOP/s, "
        "above the 16-bit roof because fp8 tensor cores have twice its peak."
    )
    assert steps[-1] == (
        "At one token per weight read (M = 1, about 1 FLOP/byte: decode at batch 1) the measured bf16 multiplies ran "
        "at 2.80–3.81 TFLOP/s, against 4.8 on the datasheet roof and 4.24 on the measured one."
    )


def test_prefill_decode_compares_batch_1_decode_and_a_2k_prefill_with_theory(client):
    # 80 × 1,711,276,032 bytes = 136.9 GB at 4.8 TB/s = 28.52 ms → 35.06 tokens/s; measured 30.69 → 87.5 %.
    # Prefill: 2 × 855,638,016 × 2,048 × 80 / 989e12 = 0.2835 s against 80 × 5.037 ms = 0.403 s → 70 %.
    steps = api(client, "prefill-decode", gpu="h200", model="llama-3-70b")["steps"]
    assert steps[-3] == (
        "Measured on one H200: 30.7 tokens/s at batch 1 against 35.1 tokens/s predicted (88 %). The prediction "
        "reads the same bytes the measurement moved: 80 × 1,711,276,032 bytes of bf16 Llama-3-70B-shaped layer "
        "weights (137 GB, no attention or embeddings) at the 4.8 TB/s datasheet bandwidth."
    )
    # The comparison: 30.7 measured against the page's own 34.0 for the whole 141.1 GB model.
    assert steps[-2] == (
        "Against this page's whole-model figure of 34.0 tokens/s (141.1 GB of weights), "
        "the chip delivered 90 % of the theory."
    )
    assert steps[-1] == (
        "A 2,048-token prefill through those 80 layers measured 0.403 s against 0.283 s predicted at the "
        "989 TFLOP/s datasheet peak: the matmuls ran at 70 % of it."
    )


def test_the_whole_model_comparison_appears_only_for_a_70b_shaped_model(client):
    steps = api(client, "prefill-decode", gpu="h200", model="llama-3-8b")["steps"]
    assert not any(step.startswith("Against this page's whole-model figure") for step in steps)
    assert any(step.startswith("Measured on one H200: 30.7 tokens/s") for step in steps)


def test_batching_compares_the_measured_layer_with_theory_at_batch_1_64_and_this_batch(client):
    # Batch 16 in fp8: 80 × 855,638,016 bytes / 4.8e12 = 14.26 ms; 16 / 14.26 ms = 1,122 predicted; measured 854.7.
    steps = api(client, "batching", gpu="h200", model="llama-3-70b")["steps"]
    assert "Measured on one H200: 30.7 tokens/s at batch 1 against 35.1 tokens/s predicted (88 %)" in steps[-3]
    assert steps[-2] == (
        "From batch 1 to 64 the measured step grew only 21 % (32.6 ms to 39.3 ms for 80 layers), so aggregate "
        "throughput rose 53-fold: 30.7 tokens/s to 1,630 tokens/s."
    )
    assert steps[-1] == (
        "At this batch of 16 in fp8, the H200 measured 855 tokens/s against 1,120 tokens/s predicted for the same "
        "layer (76 %)."
    )


def test_the_predicted_curve_for_the_measured_layer_uses_the_measurements_assumptions(client):
    charts = api(client, "batching", gpu="h200")["charts"][0]["data"]
    predicted = next(t for t in charts if t["name"] == "predicted bf16 for that layer")
    assert predicted["x"][0] == 1
    assert predicted["y"][0] == pytest.approx(4.8e12 / (80 * 1_711_276_032), rel=1e-3)  # 35.06 tokens/s
    measured = next(t for t in charts if t["name"].startswith("measured bf16"))
    assert measured["x"][:3] == [1, 2, 4] and measured["y"][0] == pytest.approx(30.69, abs=0.01)


def test_measured_points_also_reach_the_page_and_the_fragment(client):
    page = client.get("/calculators/roofline/", {"gpu": "h200"}).content.decode()
    assert "measured bf16 GEMM (H200)" in page and "Measured on one H200" in page
    fragment = client.get("/calculators/roofline/", {"gpu": "h200"}, HTTP_HX_REQUEST="true").content.decode()
    assert "measured fp8 GEMM (H200)" in fragment
    plain = client.get("/calculators/roofline/", {"gpu": "h100-sxm"}).content.decode()
    assert "measured" not in plain.lower()
