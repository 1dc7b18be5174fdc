"""gpu= and model= fill the inputs they determine, on the API, the page and the fragment; explicit values win."""

import json
import re

import pytest

from calculators.engine import presets as engine_presets
from calculators.engine import registry
from calculators.models import GpuPreset, ModelPreset

# 2 (K and V) × layers × KV heads × head dim × 2 bytes, from each model's config.json.
KV_BYTES_PER_TOKEN = {
    "bank-example-70b": 163_840,  # 2 × 40 × 8 × 128 × 2 = 160 KiB
    "llama-3-8b": 131_072,  # 2 × 32 × 8 × 128 × 2 = 128 KiB
    "llama-3-70b": 327_680,  # 2 × 80 × 8 × 128 × 2 = 320 KiB
    "llama-3.1-405b": 516_096,  # 2 × 126 × 8 × 128 × 2 = 504 KiB
    "mistral-7b": 131_072,  # 2 × 32 × 8 × 128 × 2
    "mixtral-8x7b": 131_072,  # 2 × 32 × 8 × 128 × 2: experts share the attention
    "qwen2.5-72b": 327_680,  # 2 × 80 × 8 × 128 × 2
}
SHAPES = {  # params_b, active_params_b input, layers, kv_heads, head_dim
    "bank-example-70b": (70, 0, 40, 8, 128),
    "llama-3-8b": (8.03, 0, 32, 8, 128),
    "llama-3-70b": (70.55, 0, 80, 8, 128),
    "llama-3.1-405b": (405.85, 0, 126, 8, 128),
    "mistral-7b": (7.24, 0, 32, 8, 128),
    "mixtral-8x7b": (46.7, 12.9, 32, 8, 128),
    "qwen2.5-72b": (72.71, 0, 80, 8, 128),
}
GPUS = {
    "h100-sxm": (989, 3.35),
    "h200": (989, 4.8),
    "a100-80gb": (312, 2.04),
    "l40s": (362.05, 0.864),
    "mi300x": (1307.4, 5.3),
    "b200": (2250, 8),
}


def api(client, slug, **query):
    return client.get(f"/api/calculators/{slug}/", query)


@pytest.mark.parametrize("model", KV_BYTES_PER_TOKEN)
def test_each_model_gives_its_kv_bytes_per_token(client, model):
    paged = api(client, "paged-attention", model=model).json()
    assert paged["inputs"]["kv_bytes_per_token"] == KV_BYTES_PER_TOKEN[model]
    assert paged["presets"] == {"gpu": None, "model": model}
    batching = api(client, "batching", model=model).json()
    assert batching["inputs"]["kv_bytes_per_token"] == KV_BYTES_PER_TOKEN[model]
    kv = api(client, "kv-capacity", model=model).json()
    assert kv["outputs"]["kv_bytes_per_token"] == KV_BYTES_PER_TOKEN[model]
    assert (
        engine_presets.kv_bytes_per_token(ModelPreset.objects.get(slug=model).as_engine_dict())
        == (KV_BYTES_PER_TOKEN[model])
    )


@pytest.mark.parametrize("model", SHAPES)
def test_each_model_fills_its_size_and_shape(client, model):
    params_b, active, layers, kv_heads, head_dim = SHAPES[model]
    inputs = api(client, "prefill-decode", model=model).json()["inputs"]
    assert (inputs["params_b"], inputs["active_params_b"]) == (params_b, active)
    kv = api(client, "kv-capacity", model=model).json()["inputs"]
    assert (kv["layers"], kv["kv_heads"], kv["head_dim"]) == (layers, kv_heads, head_dim)
    assert kv["free_gib"] == 9  # a model alone says nothing about the GPU's memory


@pytest.mark.parametrize("gpu", GPUS)
def test_each_gpu_fills_peak_and_bandwidth_wherever_they_are_inputs(client, gpu):
    for slug in ("prefill-decode", "batching", "roofline"):
        body = api(client, slug, gpu=gpu).json()
        assert (body["inputs"]["peak_tflops"], body["inputs"]["bandwidth_tbs"]) == GPUS[gpu], slug
        assert body["presets"] == {"gpu": gpu, "model": None}


def test_the_h100_and_the_banks_model_give_the_banks_figures(client):
    body = api(client, "prefill-decode", gpu="h100-sxm", model="bank-example-70b").json()
    assert body["outputs"]["flops_per_token"] == 140e9
    assert body["outputs"]["decode_tokens_per_s"] == pytest.approx(23.93, abs=0.01)
    assert body["outputs"]["prefill_s"] == pytest.approx(0.2831, abs=1e-4)


FREE_GIB = [  # (datasheet GB × 1e9 − params × 2 bytes) / 2^30, rounded down to 0.01
    ("h100-sxm", "llama-3-8b", 59.54),  # (80e9 − 16.06e9) / 2^30 = 59.549
    ("h200", "mixtral-8x7b", 44.33),  # (141e9 − 93.4e9) / 2^30 = 44.331
    ("mi300x", "llama-3-70b", 47.40),  # (192e9 − 141.1e9) / 2^30 = 47.404
    ("b200", "qwen2.5-72b", 32.20),  # (180e9 − 145.42e9) / 2^30 = 32.205
    ("l40s", "mistral-7b", 31.21),  # (48e9 − 14.48e9) / 2^30 = 31.218
]


@pytest.mark.parametrize(("gpu", "model", "free"), FREE_GIB)
def test_a_gpu_and_a_model_give_the_memory_left_for_the_cache(client, gpu, model, free):
    body = api(client, "kv-capacity", gpu=gpu, model=model).json()
    assert body["inputs"]["free_gib"] == free


def test_8_bit_weights_leave_room_where_16_bit_ones_do_not(client):
    # 70.55e9 × 2 = 141.1 GB > 141 GB; at 1 byte: (141e9 − 70.55e9) / 2^30 = 65.61 GiB.
    refused = api(client, "kv-capacity", gpu="h200", model="llama-3-70b")
    assert refused.status_code == 400
    assert refused.json() == {
        "errors": {
            "model": [
                "Llama 3 70B's weights (141.1 GB at 16-bit) leave no room for a KV cache in NVIDIA H200 SXM's 141 GB: "
                "choose a larger GPU, a smaller model or smaller weights (bytes_per_param=1 for 8-bit), or give "
                "free_gib yourself (for example for weights split across several GPUs)."
            ]
        }
    }
    body = api(client, "kv-capacity", gpu="h200", model="llama-3-70b", bytes_per_param="1").json()
    assert body["inputs"]["free_gib"] == 65.61
    assert body["outputs"]["users"] == 52  # 65.61 GiB ÷ (327,680 × 4,096 bytes = 1.25 GiB) = 52.5


def test_weights_that_do_not_fit_are_fine_when_the_free_memory_is_given(client):
    body = api(client, "kv-capacity", gpu="h100-sxm", model="llama-3.1-405b", free_gib="20").json()
    assert body["inputs"]["free_gib"] == 20
    assert body["inputs"]["layers"] == 126


def test_a_kv_precision_in_the_query_changes_the_kv_bytes_a_model_gives(client):
    body = api(client, "batching", model="llama-3-70b", kv_bytes="1").json()
    assert body["inputs"]["kv_bytes_per_token"] == 163_840  # 2 × 80 × 8 × 128 × 1
    assert api(client, "batching", model="llama-3-70b", kv_bytes="9").json() == {
        "errors": {"kv_bytes": ["Must be at most 4."]}
    }


def test_explicit_parameters_win_over_the_presets(client):
    body = api(client, "prefill-decode", gpu="h200", model="llama-3-70b", bandwidth_tbs="3", params_b="65").json()
    assert body["inputs"]["bandwidth_tbs"] == 3
    assert body["inputs"]["params_b"] == 65
    assert body["inputs"]["peak_tflops"] == 989  # still the preset's
    kv = api(client, "kv-capacity", model="llama-3-70b", layers="40").json()["inputs"]
    assert (kv["layers"], kv["kv_heads"], kv["head_dim"]) == (40, 8, 128)


def test_an_explicit_bad_value_is_still_bad_with_a_preset(client):
    response = api(client, "prefill-decode", gpu="h200", bandwidth_tbs="fast")
    assert response.status_code == 400
    assert response.json() == {"errors": {"bandwidth_tbs": ["Enter a number, such as 3.35."]}}


GPU_MESSAGE = "Unknown GPU preset “h2000”. Choose one of: h100-sxm, h200, a100-80gb, l40s, mi300x, b200."
MODEL_MESSAGE = (
    "Unknown model preset “llama-4”. Choose one of: bank-example-70b, llama-3-8b, llama-3-70b, llama-3.1-405b, "
    "mistral-7b, mixtral-8x7b, qwen2.5-72b."
)


@pytest.mark.parametrize("slug", [c.slug for c in registry.all_calculators()])
def test_an_unknown_preset_is_a_400_on_its_name_on_every_calculator(client, slug):
    response = api(client, slug, gpu="h2000", model="llama-4")
    assert response.status_code == 400
    assert response.json() == {"errors": {"gpu": [GPU_MESSAGE], "model": [MODEL_MESSAGE]}}


def test_an_unknown_preset_is_shown_beside_its_picker_and_the_page_keeps_a_result(client):
    response = client.get("/calculators/roofline/", {"gpu": "h2000"})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="field-error" id="err_gpu">{GPU_MESSAGE}</p>' in html
    assert "Showing the result without the GPU preset until the highlighted value is fixed." in html
    assert '<ol class="steps">' in html


def test_an_unknown_preset_in_a_fragment_sends_only_its_message_out_of_band(client):
    response = client.get("/calculators/roofline/", {"gpu": "h2000"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="field-error" id="err_gpu" hx-swap-oob="true">{GPU_MESSAGE}</p>' in html
    assert '<p class="field-error" id="err_model" hx-swap-oob="true"></p>' in html
    assert f"GPU preset: {GPU_MESSAGE}" in html
    assert '<ol class="steps">' not in html


def test_an_empty_picker_value_means_no_preset(client):
    body = api(client, "roofline", gpu="", model="").json()
    assert body["presets"] == {"gpu": None, "model": None}
    assert body["inputs"]["bandwidth_tbs"] == 3.35


def test_calculators_no_preset_affects_accept_a_known_one_and_fill_nothing(client):
    body = api(client, "queueing", gpu="h200", model="llama-3-70b").json()
    assert body["inputs"] == registry.get("queueing").defaults
    assert body["presets"] == {"gpu": "h200", "model": "llama-3-70b"}


# ---- mixture-of-experts -------------------------------------------------------


def test_mixtral_holds_all_its_experts_but_spends_flops_on_the_active_ones(client):
    body = api(client, "prefill-decode", model="mixtral-8x7b").json()
    assert body["outputs"]["flops_per_token"] == pytest.approx(25.8e9)  # 2 × 12.9e9
    assert body["outputs"]["weight_bytes"] == pytest.approx(93.4e9)  # 46.7e9 × 2
    assert body["outputs"]["prefill_flops"] == pytest.approx(2000 * 25.8e9)
    assert "holds 46.7 B parameters in memory but spends FLOPs on 12.9 B active" in body["steps"][0]
    roofline = api(client, "roofline", model="mixtral-8x7b").json()["outputs"]
    assert roofline["decode_intensity"] == pytest.approx(2 * 12.9 / (46.7 * 2))  # 0.276 FLOP/byte
    batching = api(client, "batching", model="mixtral-8x7b").json()
    assert "holds 46.7 B parameters in memory but spends FLOPs on 12.9 B active" in batching["steps"][0]


def test_a_dense_model_says_nothing_about_experts(client):
    for slug in ("prefill-decode", "batching", "roofline"):
        steps = " ".join(api(client, slug, model="llama-3-70b").json()["steps"])
        assert "active" not in steps, slug


def test_more_active_than_total_parameters_is_refused_on_the_active_field(client):
    message = (
        "Active parameters (80 billion) cannot exceed the model's total (70 billion): lower them, or use 0 for a "
        "dense model."
    )
    for slug in ("prefill-decode", "batching", "roofline"):
        response = api(client, slug, active_params_b="80")
        assert response.status_code == 400
        assert response.json() == {"errors": {"active_params_b": [message]}}
    page = client.get("/calculators/batching/", {"active_params_b": "80"})
    assert page.status_code == 400
    assert f'id="err_active_params_b">{message}</p>' in page.content.decode().replace("&#x27;", "'")


def test_active_parameters_equal_to_the_total_are_the_dense_answer(client):
    dense = api(client, "batching").json()["outputs"]
    same = api(client, "batching", active_params_b="70").json()["outputs"]
    assert same == dense


# ---- the page -----------------------------------------------------------------


def preset_data(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="preset-data">(.*?)</script>', html, re.S)[1])


def test_pickers_appear_where_presets_determine_inputs(client):
    expected = {
        "prefill-decode": {"gpu", "model"},
        "kv-capacity": {"gpu", "model"},
        "batching": {"gpu", "model"},
        "paged-attention": {"model"},
        "roofline": {"gpu", "model"},
        "queueing": set(),
        "speculative-decoding": set(),
    }
    for slug, kinds in expected.items():
        html = client.get(f"/calculators/{slug}/").content.decode()
        assert {k for k in ("gpu", "model") if f'<select id="id_{k}" name="{k}"' in html} == kinds, slug
        assert ('id="apply-presets"' in html) == bool(kinds), slug


def test_the_page_embeds_the_values_each_pair_of_presets_fills(client):
    html = client.get("/calculators/kv-capacity/").content.decode()
    combos = preset_data(html)["combos"]
    assert combos["h100-sxm|llama-3-8b"] == {
        "values": {"layers": 32, "kv_heads": 8, "head_dim": 128, "free_gib": 59.54}
    }
    assert combos["h200|"] == {"values": {}}
    assert combos["|llama-3-70b"]["values"] == {"layers": 80, "kv_heads": 8, "head_dim": 128}
    assert combos["h100-sxm|llama-3.1-405b"]["field"] == "model"
    assert combos["h100-sxm|llama-3.1-405b"]["values"] == {"layers": 126, "kv_heads": 8, "head_dim": 128}
    roofline = preset_data(client.get("/calculators/roofline/").content.decode())["combos"]
    assert roofline["h200|"]["values"] == {"peak_tflops": 989, "bandwidth_tbs": 4.8}


def test_the_page_shows_the_filled_values_and_the_chosen_presets(client):
    html = client.get("/calculators/kv-capacity/", {"gpu": "h100-sxm", "model": "llama-3-8b"}).content.decode()
    assert 'name="layers" value="32"' in html
    assert 'name="free_gib" value="59.54"' in html
    assert '<option value="h100-sxm" selected>NVIDIA H100 SXM</option>' in html
    assert '<option value="llama-3-8b" selected>Llama 3 8B</option>' in html
    assert "2 × 32 layers × 8 KV heads × 128 dims × 2 bytes = 131,072 bytes = 128 KiB per token" in html


def test_apply_presets_without_javascript_drops_the_values_they_determine(client):
    query = {"gpu": "h200", "model": "llama-3-70b", "peak_tflops": "5", "params_b": "7", "batch": "3"}
    response = client.get("/calculators/batching/", {**query, "apply": "presets"})
    assert response.status_code == 302
    assert response["Location"] == "/calculators/batching/?gpu=h200&model=llama-3-70b&batch=3"
    inputs = api(client, "batching", gpu="h200", model="llama-3-70b", batch="3").json()["inputs"]
    assert (inputs["peak_tflops"], inputs["params_b"], inputs["batch"]) == (989, 70.55, 3)


def test_apply_presets_with_no_preset_chosen_keeps_every_value(client):
    response = client.get("/calculators/batching/", {"gpu": "", "peak_tflops": "5", "apply": "presets"})
    assert response["Location"] == "/calculators/batching/?peak_tflops=5"


def test_the_api_lists_the_presets_and_what_each_calculator_takes_from_them(client):
    body = client.get("/api/presets/").json()
    assert [g["slug"] for g in body["gpus"]] == list(GPUS)
    assert {m["slug"]: m["kv_bytes_per_token"] for m in body["models"]} == KV_BYTES_PER_TOKEN
    assert [g["slug"] for g in body["gpus"] if g["measured"]] == ["h200"]
    index = {c["slug"]: c for c in client.get("/api/calculators/").json()}
    assert index["kv-capacity"]["preset_inputs"] == {
        "gpu": [],
        "model": ["layers", "kv_heads", "head_dim"],
        "both": ["free_gib"],
    }
    assert index["queueing"]["preset_inputs"] == {"gpu": [], "model": [], "both": []}


def test_presets_edited_in_the_database_are_what_the_calculators_use(client):
    GpuPreset.objects.filter(slug="h100-sxm").update(bandwidth_tbs=3.9)
    assert api(client, "roofline", gpu="h100-sxm").json()["inputs"]["bandwidth_tbs"] == 3.9
