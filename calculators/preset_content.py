"""Presets as content: read and check content/presets/, then upsert them by slug.

``read_presets`` parses and validates everything and writes nothing, so a broken
file is refused whole with its path and field; ``save_presets`` then writes the
checked records inside the caller's transaction and counts what it did. The
``load_content`` command calls the two in that order; the tests call them too.

Presets in the database that the files no longer mention are left alone:
instructors may have added them in the admin.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction

from prepsite.content import ContentError, Fields, read_yaml

from .engine import registry
from .engine.measured import problems as measurement_problems
from .engine.presets import bound_problems
from .models import GpuPreset, ModelPreset, model_shape_errors

GPU_FIELDS = {"slug", "name", "order", "peak_tflops", "bandwidth_tbs", "memory_gb", "notes", "measurements"}
MODEL_FIELDS = {
    "slug",
    "name",
    "order",
    "params_b",
    "active_params_b",
    "layers",
    "attention_heads",
    "kv_heads",
    "head_dim",
    "notes",
}


@dataclass(frozen=True)
class PresetRecords:
    """Checked presets, one dict of model-field values per row."""

    gpus: tuple[dict[str, Any], ...]
    models: tuple[dict[str, Any], ...]


class EntryFields(Fields):
    """Fields of one entry in a list; errors name it: ``gpus[h200].peak_tflops``."""

    def positive(self, field: str, *, required: bool = True) -> float | None:
        value = self.number(field, required=required)
        if value is not None and not value > 0:
            raise self.error(field, "must be more than 0")
        return value


def entries(path: Path, items: Any, key: str, allowed: set[str], *, allow_empty: bool = False):
    """(index, EntryFields) for each preset in ``items``, the list under ``key`` (which errors are named by)."""
    if not isinstance(items, list) or not (items or allow_empty):
        raise ContentError(path, key, "must be a non-empty list of presets" if not allow_empty else "must be a list")
    seen: set[str] = set()
    for index, entry in enumerate(items):
        if not isinstance(entry, dict):
            raise ContentError(path, f"{key}[{index}]", "must be a mapping of field: value")
        fields = EntryFields(path, entry, allowed, f"{key}[{index}]")
        slug = fields.slug()
        if slug in seen:
            raise fields.error("slug", f"{slug!r} is used by an earlier preset in this file")
        seen.add(slug)
        fields.prefix = f"{key}[{slug}]"
        yield index, fields


def _file_entries(path: Path, key: str, allowed: set[str]):
    data = read_yaml(path)
    Fields(path, data, {key})
    return entries(path, data.get(key), key, allowed)


def _read_measurements(presets_dir: Path | None, fields: EntryFields) -> dict | None:
    """A GPU's measurements: a file name under measured/ in a presets folder, or the mapping itself (exports)."""
    value = fields.data.get("measurements")
    if isinstance(value, dict):
        data = value
        found = measurement_problems(data)
        if found:
            field, message = found[0]
            raise fields.error(f"measurements.{field}" if field else "measurements", message)
        return data
    name = fields.text("measurements", required=False)
    if not name:
        return None
    if presets_dir is None:
        raise fields.error("measurements", "give the measurements themselves (a mapping), not a file name")
    path = (presets_dir / name).resolve()
    if presets_dir.resolve() / "measured" not in path.parents or path.suffix != ".json":
        raise fields.error("measurements", f"{name!r} must be a .json file under measured/")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise fields.error("measurements", f"{name!r} does not exist") from exc
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ContentError(path, None, f"is not readable JSON ({exc})") from exc
    found = measurement_problems(data)
    if found:
        field, message = found[0]
        raise ContentError(path, field or None, message)
    return data


def _check_bounds(fields: EntryFields, **preset) -> None:
    problems = bound_problems(registry.all_calculators(), **preset)
    if problems:
        slug, message = problems[0]
        raise ContentError(fields.path, fields.prefix, f"on the {slug} calculator: {message}")


def gpu_record(f: EntryFields, index: int, presets_dir: Path | None) -> dict[str, Any]:
    """One GPU preset, checked; ``presets_dir`` resolves a measurements file name (None: inline only)."""
    record = {
        "slug": f.slug(),
        "name": f.text("name", max_length=100),
        "order": f.integer("order", required=False, default=index),
        "peak_tflops": f.positive("peak_tflops"),
        "bandwidth_tbs": f.positive("bandwidth_tbs"),
        "memory_gb": f.positive("memory_gb"),
        "notes": f.text("notes"),
        "measurements": _read_measurements(presets_dir, f),
    }
    _check_bounds(f, gpu=record)
    return record


def model_record(f: EntryFields, index: int) -> dict[str, Any]:
    """One model preset, checked."""
    record = {
        "slug": f.slug(),
        "name": f.text("name", max_length=100),
        "order": f.integer("order", required=False, default=index),
        "params_b": f.positive("params_b"),
        "active_params_b": f.positive("active_params_b", required=False),
        "layers": f.integer("layers", minimum=1),
        "attention_heads": f.integer("attention_heads", minimum=1),
        "kv_heads": f.integer("kv_heads", minimum=1),
        "head_dim": f.integer("head_dim", minimum=1),
        "notes": f.text("notes"),
    }
    errors = model_shape_errors(record)
    if errors:
        field, message = next(iter(errors.items()))
        raise f.error(field, message[0].lower() + message[1:].rstrip("."))
    _check_bounds(f, model=record)
    return record


def read_presets(content_dir: Path) -> PresetRecords:
    """Every preset under ``content_dir``/presets (or ``content_dir`` itself if it holds gpus.yaml), checked."""
    presets_dir = content_dir if (content_dir / "gpus.yaml").exists() else content_dir / "presets"
    gpus = [gpu_record(f, i, presets_dir) for i, f in _file_entries(presets_dir / "gpus.yaml", "gpus", GPU_FIELDS)]
    models = [model_record(f, i) for i, f in _file_entries(presets_dir / "models.yaml", "models", MODEL_FIELDS)]
    return PresetRecords(tuple(gpus), tuple(models))


def _upsert(model, records) -> Counter:
    counts = Counter(created=0, updated=0, unchanged=0)
    existing = {row.slug: row for row in model.objects.filter(slug__in=[r["slug"] for r in records])}
    for record in records:
        row = existing.get(record["slug"])
        if row is None:
            model.objects.create(**record)
            counts["created"] += 1
            continue
        changed = [name for name, value in record.items() if getattr(row, name) != value]
        if changed:
            for name in changed:
                setattr(row, name, record[name])
            row.save(update_fields=changed)
            counts["updated"] += 1
        else:
            counts["unchanged"] += 1
    return counts


def save_presets(records: PresetRecords) -> dict[str, Counter]:
    """Create or update each preset by slug; saving the same records twice changes nothing the second time."""
    with transaction.atomic():  # a savepoint inside the caller's transaction
        return {
            "GpuPreset": _upsert(GpuPreset, records.gpus),
            "ModelPreset": _upsert(ModelPreset, records.models),
        }
