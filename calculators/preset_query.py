"""``gpu=<slug>`` and ``model=<slug>`` in a calculator's query: which presets, and which inputs they fill.

Every calculator accepts both (one that has no input a preset determines just
fills nothing). An unknown slug is an error on ``gpu`` or ``model``; an empty
value means no preset (the pickers' first option). The arithmetic is the pure
``calculators.engine.presets``; this module only looks the rows up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from django.core.exceptions import ValidationError

from .engine import presets as engine_presets
from .engine.measured import Measured
from .engine.spec import Calculator
from .forms import NumberField
from .models import GpuPreset, ModelPreset

LABELS = {
    "gpu": "GPU preset",
    "model": "Model preset",
    "kv_bytes": "KV bytes per element",
    "bytes_per_param": "Bytes per parameter",
}
KINDS = (("gpu", GpuPreset, "GPU"), ("model", ModelPreset, "model"))


def _option_field(name: str) -> NumberField:
    """Precisions a preset's arithmetic needs that some calculators have no input for: same bounds as where they are."""
    from .engine import registry
    from .engine.shared_params import bytes_per_param

    return NumberField(registry.get("kv-capacity").param("kv_bytes") if name == "kv_bytes" else bytes_per_param())


@dataclass
class Chosen:
    """The presets a query names, the inputs they fill, and what was wrong."""

    gpu: GpuPreset | None = None
    model: ModelPreset | None = None
    values: dict[str, float | int] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)

    @cached_property
    def measured(self) -> Measured | None:
        """The GPU's measurements, if it has any: drawn beside the theory."""
        gpu = self.gpu
        if gpu is None or not gpu.measurements:
            return None
        return Measured.from_preset(gpu.measurements, gpu.peak_tflops, gpu.bandwidth_tbs)

    def echo(self) -> dict[str, str | None]:
        return {"gpu": self.gpu.slug if self.gpu else None, "model": self.model.slug if self.model else None}

    def filled_names(self, calculator: Calculator) -> list[str]:
        """The inputs these presets determine on this calculator (whether or not the query also gives them)."""
        fields = engine_presets.fields_for(calculator)
        names = []
        if self.gpu is not None:
            names += fields["gpu"]
        if self.model is not None:
            names += fields["model"]
        if self.gpu is not None and self.model is not None:
            names += fields["both"]
        return names


def _unknown(kind: str, model, noun: str, slug: str) -> str:
    known = ", ".join(model.objects.values_list("slug", flat=True))
    shown = slug if len(slug) <= 40 else slug[:40] + "…"
    if not known:
        return f"Unknown {noun} preset “{shown}”: no presets are loaded yet."
    return f"Unknown {noun} preset “{shown}”. Choose one of: {known}."


def choose(calculator: Calculator, query) -> Chosen:
    """Look up ``gpu`` and ``model``; fill what they determine unless the query gives it explicitly."""
    chosen = Chosen()
    for kind, model, noun in KINDS:
        slug = (query.get(kind) or "").strip()
        if not slug:
            continue
        row = model.objects.filter(slug=slug).first()
        if row is None:
            chosen.errors[kind] = [_unknown(kind, model, noun, slug)]
        else:
            setattr(chosen, kind, row)
    if chosen.errors or (chosen.gpu is None and chosen.model is None):
        return chosen

    # KV bytes per element (for kv_bytes_per_token) and weight bytes per parameter (for free_gib): 16-bit
    # unless the query says otherwise, where the calculator has no input of that name.
    options = {"kv_bytes": engine_presets.KV_BYTES_16_BIT, "bytes_per_param": engine_presets.WEIGHT_BYTES_16_BIT}
    names = {p.name for p in calculator.params}
    for name in options:
        if chosen.model is not None and name not in names and name in query:
            try:
                options[name] = _option_field(name).clean(query.get(name))
            except ValidationError as error:
                chosen.errors[name] = list(error.messages)
    if chosen.errors:
        return chosen

    explicit = {name for name in query if name in names}
    try:
        derived = engine_presets.inputs_for(
            calculator,
            chosen.gpu.as_engine_dict() if chosen.gpu else None,
            chosen.model.as_engine_dict() if chosen.model else None,
            kv_bytes=options["kv_bytes"],
            bytes_per_param=options["bytes_per_param"],
            skip=explicit,
        )
    except engine_presets.PresetError as error:
        chosen.errors[error.field] = [error.message]
        return chosen
    chosen.values = derived
    return chosen


def picker_names(calculator: Calculator) -> list[str]:
    """``gpu`` and/or ``model``: the pickers this calculator's page has (no database needed)."""
    fields = engine_presets.fields_for(calculator)
    return [kind for kind, _, _ in KINDS if fields[kind] or fields["both"]]


def pickers(calculator: Calculator, chosen: Chosen) -> list[dict]:
    """The preset selects a calculator page shows: only for presets that determine one of its inputs."""
    fields = engine_presets.fields_for(calculator)
    shown = []
    for kind, model, noun in KINDS:
        if kind not in picker_names(calculator):
            continue
        labels = [calculator.param(name).label.lower() for name in fields[kind]]
        if fields["both"]:
            other = "model" if kind == "gpu" else "GPU"
            labels += [f"{calculator.param(n).label.lower()} (with a {other})" for n in fields["both"]]
        shown.append(
            {
                "name": kind,
                "label": f"{noun.capitalize() if noun == 'model' else noun} preset",
                "options": list(model.objects.all()),
                "selected": getattr(chosen, kind).slug if getattr(chosen, kind) else "",
                "fills": ", ".join(labels),
                "errors": chosen.errors.get(kind, []),
            }
        )
    return shown


def picker_data(calculator: Calculator, options: dict[str, list]) -> dict:
    """What the page's script needs to fill inputs the moment a preset is picked: each pair's values."""
    gpus = [None, *options.get("gpu", [])]
    models = [None, *options.get("model", [])]
    combos = {}
    for gpu in gpus:
        for model in models:
            key = f"{gpu.slug if gpu else ''}|{model.slug if model else ''}"
            entry: dict = {"values": {}}
            try:
                entry["values"] = engine_presets.inputs_for(
                    calculator, gpu.as_engine_dict() if gpu else None, model.as_engine_dict() if model else None
                )
            except engine_presets.PresetError as error:
                partial = engine_presets.inputs_for(
                    calculator,
                    gpu.as_engine_dict() if gpu else None,
                    model.as_engine_dict() if model else None,
                    skip={"free_gib"},
                )
                entry = {"values": partial, "error": error.message, "field": error.field}
            combos[key] = entry
    return {"combos": combos}
