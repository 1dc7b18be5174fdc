"""content/presets: read and check everything first, then upsert by slug; loading twice changes nothing."""

import json
import shutil
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from calculators.models import GpuPreset, ModelPreset
from calculators.preset_content import read_presets, save_presets
from prepsite.content import CONTENT_DIR, ContentError

SHIPPED = CONTENT_DIR / "presets"


@pytest.fixture
def copy(tmp_path) -> Path:
    """A copy of content/presets to break."""
    target = tmp_path / "presets"
    shutil.copytree(SHIPPED, target)
    return target


def replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_the_shipped_presets_are_the_issues_gpus_and_models_in_order():
    records = read_presets(CONTENT_DIR)
    assert [g["slug"] for g in records.gpus] == ["h100-sxm", "h200", "a100-80gb", "l40s", "mi300x", "b200"]
    assert [m["slug"] for m in records.models] == [
        "bank-example-70b",
        "llama-3-8b",
        "llama-3-70b",
        "llama-3.1-405b",
        "mistral-7b",
        "mixtral-8x7b",
        "qwen2.5-72b",
    ]


def test_the_datasheet_figures_are_the_dense_16_bit_ones():
    gpus = {g["slug"]: (g["peak_tflops"], g["bandwidth_tbs"], g["memory_gb"]) for g in read_presets(SHIPPED).gpus}
    assert gpus == {
        "h100-sxm": (989, 3.35, 80),
        "h200": (989, 4.8, 141),
        "a100-80gb": (312, 2.04, 80),
        "l40s": (362.05, 0.864, 48),
        "mi300x": (1307.4, 5.3, 192),
        "b200": (2250, 8, 180),
    }


def test_every_preset_cites_its_source_and_only_the_h200_has_measurements():
    records = read_presets(CONTENT_DIR)
    for record in (*records.gpus, *records.models):
        assert "https://" in record["notes"] or record["slug"] == "bank-example-70b", record["slug"]
    measured = {g["slug"]: g["measurements"] is not None for g in records.gpus}
    assert measured == {slug: slug == "h200" for slug in measured}
    assert "measured/h200.json" in next(g["notes"] for g in records.gpus if g["slug"] == "h200")


def test_the_measurements_are_a_verbatim_copy_of_the_shared_file():
    shipped = SHIPPED / "measured" / "h200.json"
    h200 = next(g for g in read_presets(CONTENT_DIR).gpus if g["slug"] == "h200")
    assert h200["measurements"] == json.loads(shipped.read_text())
    assert h200["measurements"]["device"] == "NVIDIA H200"
    original = Path("/work/shared/hw/h200-measured.json")
    if original.exists():  # only on the machine the data came from
        assert shipped.read_bytes() == original.read_bytes()


def test_saving_the_same_records_twice_changes_nothing_the_second_time(db):
    GpuPreset.objects.all().delete()
    ModelPreset.objects.all().delete()
    records = read_presets(CONTENT_DIR)
    first = save_presets(records)
    assert first["GpuPreset"] == {"created": 6, "updated": 0, "unchanged": 0}
    assert first["ModelPreset"] == {"created": 7, "updated": 0, "unchanged": 0}
    second = save_presets(records)
    assert second["GpuPreset"] == {"created": 0, "updated": 0, "unchanged": 6}
    assert second["ModelPreset"] == {"created": 0, "updated": 0, "unchanged": 7}
    assert GpuPreset.objects.count() == 6 and ModelPreset.objects.count() == 7


def test_a_changed_file_updates_only_the_preset_it_changes(copy):
    replace(copy / "gpus.yaml", "bandwidth_tbs: 3.35", "bandwidth_tbs: 3.3")
    counts = save_presets(read_presets(copy))
    assert counts["GpuPreset"] == {"created": 0, "updated": 1, "unchanged": 5}
    assert GpuPreset.objects.get(slug="h100-sxm").bandwidth_tbs == 3.3


def test_a_preset_added_in_the_admin_is_left_alone(db):
    GpuPreset.objects.create(slug="my-gpu", name="Mine", peak_tflops=100, bandwidth_tbs=1, memory_gb=24, notes="x")
    save_presets(read_presets(CONTENT_DIR))
    assert GpuPreset.objects.filter(slug="my-gpu").exists()


BROKEN = [
    ("gpus.yaml", "peak_tflops: 989\n    bandwidth_tbs: 3.35", "peak_tflops: -1\n    bandwidth_tbs: 3.35",
     "gpus.yaml: gpus[h100-sxm].peak_tflops: must be more than 0"),
    ("gpus.yaml", "memory_gb: 80\n", "memory_gb: lots\n",
     "gpus.yaml: gpus[h100-sxm].memory_gb: must be a finite number, not 'lots'"),
    ("gpus.yaml", "    order: 10\n", "    order: 10\n    colour: green\n",
     "gpus.yaml: gpus[0].colour: unknown field"),
    ("gpus.yaml", "slug: h200", "slug: h100-sxm",
     "gpus.yaml: gpus[1].slug: 'h100-sxm' is used by an earlier preset in this file"),
    ("gpus.yaml", "slug: l40s", "slug: L40S",
     "gpus.yaml: gpus[3].slug: 'L40S' is not a slug"),
    ("gpus.yaml", "bandwidth_tbs: 3.35", "bandwidth_tbs: 1000",
     "gpus.yaml: gpus[h100-sxm]: on the prefill-decode calculator: Memory bandwidth would be 1,000, outside 0.01..100"),
    ("gpus.yaml", "measurements: measured/h200.json", "measurements: ../gpus.yaml",
     "gpus.yaml: gpus[h200].measurements: '../gpus.yaml' must be a .json file under measured/"),
    ("gpus.yaml", "measurements: measured/h200.json", "measurements: measured/h100.json",
     "gpus.yaml: gpus[h200].measurements: 'measured/h100.json' does not exist"),
    ("gpus.yaml", "gpus:\n", "gpu:\n", "gpus.yaml: gpu: unknown field (allowed: gpus)"),
    ("gpus.yaml", "  - slug: h100-sxm\n    name", "  - slug: h100-sxm\n   name",
     "gpus.yaml: is not valid YAML at line"),
    ("models.yaml", "kv_heads: 8\n    head_dim: 128\n    notes: >-\n      https://huggingface.co/meta-llama/Meta-Llama-3-8B",
     "kv_heads: 7\n    head_dim: 128\n    notes: >-\n      https://huggingface.co/meta-llama/Meta-Llama-3-8B",
     "models.yaml: models[llama-3-8b].kv_heads: must divide the 32 attention heads evenly"),
    ("models.yaml", "active_params_b: 12.9", "active_params_b: 50",
     "models.yaml: models[mixtral-8x7b].active_params_b: cannot exceed the total parameters (46.7 billion)"),
    ("models.yaml", "layers: 126", "layers: 2000",
     "models.yaml: models[llama-3.1-405b]: on the kv-capacity calculator: Layers would be 2,000, outside 1..1,024"),
    ("models.yaml", "layers: 126", "layers: 12.6",
     "models.yaml: models[llama-3.1-405b].layers: must be a whole number, not 12.6"),
    ("models.yaml", "    head_dim: 128\n", "", "models.yaml: models[bank-example-70b].head_dim: is required"),
    ("measured/h200.json", '"gemm_fp8": [', '"gemm_fp8_old": [',
     "measured/h200.json: sections.gemm_fp8: is missing or empty"),
    ("measured/h200.json", '"copy_TBps": 4.240988101878924', '"copy_TBps": -4.2',
     "measured/h200.json: sections.copy_bandwidth.copy_TBps: must be a positive finite number, not -4.2"),
    ("measured/h200.json", '"device": "NVIDIA H200",', '"device": "NVIDIA H200"',
     "measured/h200.json: is not readable JSON"),
]  # fmt: skip


@pytest.mark.parametrize(("file", "old", "new", "message"), BROKEN, ids=[b[3][:60] for b in BROKEN])
def test_a_broken_file_is_refused_with_its_file_and_field_and_nothing_is_written(copy, file, old, new, message):
    GpuPreset.objects.all().delete()
    ModelPreset.objects.all().delete()
    replace(copy / file, old, new)
    with pytest.raises(ContentError) as caught:
        save_presets(read_presets(copy))
    assert message in str(caught.value)
    assert str(copy / file) in str(caught.value)
    assert GpuPreset.objects.count() == 0 and ModelPreset.objects.count() == 0


def test_the_models_refuse_a_shape_that_cannot_be(db):
    model = ModelPreset(
        slug="odd", name="Odd", params_b=10, active_params_b=20, layers=4, attention_heads=12, kv_heads=5, head_dim=64
    )
    with pytest.raises(ValidationError) as caught:
        model.full_clean()
    errors = caught.value.message_dict
    assert errors["kv_heads"] == ["Must divide the 12 attention heads evenly (each KV head serves a group of them)."]
    assert errors["active_params_b"] == ["Cannot exceed the total parameters (10 billion): memory holds every one."]
    assert errors["notes"] == ["This field cannot be blank."]

    gpu = GpuPreset(slug="Bad Slug", name="Bad", peak_tflops=0, bandwidth_tbs=1, memory_gb=1, notes="n")
    with pytest.raises(ValidationError) as caught:
        gpu.full_clean()
    assert caught.value.message_dict["peak_tflops"] == ["Must be more than 0."]
    assert "slug" in caught.value.message_dict


def test_a_gpu_row_that_would_put_a_calculator_out_of_bounds_is_refused(db):
    gpu = GpuPreset(slug="warp", name="Warp", peak_tflops=989, bandwidth_tbs=500, memory_gb=80, notes="n")
    with pytest.raises(ValidationError) as caught:
        gpu.full_clean()
    assert caught.value.message_dict["peak_tflops"] == [
        "On prefill-decode: Memory bandwidth would be 500, outside 0.01..100. Give bandwidth_tbs yourself instead."
    ]


def test_the_shipped_rows_pass_their_own_validation(db):
    for row in (*GpuPreset.objects.all(), *ModelPreset.objects.all()):
        row.full_clean()
        assert str(row) == row.name
