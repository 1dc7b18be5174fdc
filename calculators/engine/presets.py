"""What a GPU preset and a model preset say about a calculator's inputs.

Pure arithmetic on plain mappings (a GPU: ``peak_tflops``, ``bandwidth_tbs``,
``memory_gb``; a model: ``params_b``, ``active_params_b``, ``layers``,
``attention_heads``, ``kv_heads``, ``head_dim``), so the Django layer, the
content loader and the tests all derive the same numbers.

Conventions, stated once:

- KV cache per token = 2 (K and V) × layers × KV heads × head dim × bytes per
  element. Grouped-query attention caches the KV heads, not the attention heads.
  Bytes per element is 2 (16-bit) unless the caller says otherwise.
- Memory free for the cache = the datasheet memory (decimal GB, as vendors
  print it) minus the weights at 2 bytes per parameter (16-bit, unless the
  caller gives another ``bytes_per_param``), in GiB, rounded
  down to the 0.01 GiB the input steps in. Activations and the runtime's own
  memory are not subtracted: the figure is an upper bound. When the weights do
  not fit there is no such figure, and the caller hears it as a PresetError.
- Mixture-of-experts: every expert is held in memory (``params_b``), FLOPs are
  spent on the active ones (``active_params_b``). A dense model's
  ``active_params_b`` input is 0, which the calculators read as "all active".
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping
from typing import Any

from .spec import Calculator
from .units import bytes_decimal, num

GIB = 2**30
KV_BYTES_16_BIT = 2.0
WEIGHT_BYTES_16_BIT = 2.0

# Which calculator inputs each kind of preset determines (when the calculator has them).
GPU_INPUTS = ("peak_tflops", "bandwidth_tbs")
MODEL_INPUTS = ("params_b", "active_params_b", "layers", "kv_heads", "head_dim", "kv_bytes_per_token")
BOTH_INPUTS = ("free_gib",)


class PresetError(ValueError):
    """A preset (or a pair of them) cannot fill a calculator's inputs; ``field`` is ``gpu`` or ``model``."""

    def __init__(self, field: str, message: str):
        self.field = field
        self.message = message
        super().__init__(message)


def kv_bytes_per_token(model: Mapping[str, Any], kv_bytes: float = KV_BYTES_16_BIT) -> float:
    """2 × layers × KV heads × head dim × bytes per element (whole bytes, rounded up)."""
    exact = 2 * model["layers"] * model["kv_heads"] * model["head_dim"] * kv_bytes
    return float(math.ceil(exact))


def weight_bytes(model: Mapping[str, Any], bytes_per_param: float = WEIGHT_BYTES_16_BIT) -> float:
    """Every expert's weights: memory holds all of them."""
    return model["params_b"] * 1e9 * bytes_per_param


def free_gib(gpu: Mapping[str, Any], model: Mapping[str, Any], bytes_per_param: float = WEIGHT_BYTES_16_BIT) -> float:
    """GiB left after the weights, rounded down to 0.01; negative when they do not fit."""
    free = (gpu["memory_gb"] * 1e9 - weight_bytes(model, bytes_per_param)) / GIB
    return math.floor(round(free * 100, 6)) / 100


def active_input(model: Mapping[str, Any]) -> float:
    """The ``active_params_b`` input: 0 for a dense model (all parameters active)."""
    active = model.get("active_params_b")
    return 0.0 if active is None or active == model["params_b"] else float(active)


def derive(
    gpu: Mapping[str, Any] | None,
    model: Mapping[str, Any] | None,
    *,
    kv_bytes: float = KV_BYTES_16_BIT,
    bytes_per_param: float = WEIGHT_BYTES_16_BIT,
) -> dict[str, float | int]:
    """Every input the presets determine, whichever calculator asks (free_gib only when it exists)."""
    values: dict[str, float | int] = {}
    if gpu is not None:
        values["peak_tflops"] = float(gpu["peak_tflops"])
        values["bandwidth_tbs"] = float(gpu["bandwidth_tbs"])
    if model is not None:
        values["params_b"] = float(model["params_b"])
        values["active_params_b"] = active_input(model)
        values["layers"] = int(model["layers"])
        values["kv_heads"] = int(model["kv_heads"])
        values["head_dim"] = int(model["head_dim"])
        values["kv_bytes_per_token"] = int(kv_bytes_per_token(model, kv_bytes))
    if gpu is not None and model is not None:
        free = free_gib(gpu, model, bytes_per_param)
        if free > 0:
            values["free_gib"] = free
    return values


def fields_for(calculator: Calculator) -> dict[str, list[str]]:
    """The inputs of this calculator a GPU preset, a model preset and the pair of them determine."""
    names = {p.name for p in calculator.params}
    return {
        "gpu": [n for n in GPU_INPUTS if n in names],
        "model": [n for n in MODEL_INPUTS if n in names],
        "both": [n for n in BOTH_INPUTS if n in names],
    }


def _out_of_bounds(calculator: Calculator, name: str, value: float) -> str | None:
    p = calculator.param(name)
    if value < p.minimum or value > p.maximum:
        return f"{p.label} would be {num(value)}, outside {num(p.minimum)}..{num(p.maximum)}"
    if p.integer and value != int(value):
        return f"{p.label} would be {num(value)}, not a whole number"
    return None


def inputs_for(
    calculator: Calculator,
    gpu: Mapping[str, Any] | None,
    model: Mapping[str, Any] | None,
    *,
    kv_bytes: float = KV_BYTES_16_BIT,
    bytes_per_param: float = WEIGHT_BYTES_16_BIT,
    skip: Collection[str] = (),
) -> dict[str, float | int]:
    """The inputs of ``calculator`` these presets fill, each within its bounds, or a PresetError.

    ``skip`` names inputs given explicitly: they win, so they are neither filled nor checked.
    """
    fields = fields_for(calculator)
    derived = derive(gpu, model, kv_bytes=kv_bytes, bytes_per_param=bytes_per_param)
    values: dict[str, float | int] = {}
    for kind in ("gpu", "model", "both"):
        for name in fields[kind]:
            if name in skip:
                continue
            if name == "free_gib" and gpu is not None and model is not None and name not in derived:
                raise PresetError("model", _does_not_fit(gpu, model, bytes_per_param))
            if name not in derived:
                continue
            problem = _out_of_bounds(calculator, name, derived[name])
            if problem:
                raise PresetError("gpu" if kind == "gpu" else "model", f"{problem}. Give {name} yourself instead.")
            values[name] = derived[name]
    return values


def _does_not_fit(gpu: Mapping[str, Any], model: Mapping[str, Any], bytes_per_param: float) -> str:
    weights = bytes_decimal(weight_bytes(model, bytes_per_param))
    bits = num(bytes_per_param * 8)
    smaller = " or smaller weights (bytes_per_param=1 for 8-bit)" if bytes_per_param > 1 else ""
    return (
        f"{model.get('name', 'This model')}'s weights ({weights} at {bits}-bit) leave no room for a KV cache in "
        f"{gpu.get('name', 'this GPU')}'s {num(gpu['memory_gb'])} GB: choose a larger GPU, a smaller model{smaller}, "
        f"or give free_gib yourself (for example for weights split across several GPUs)."
    )


def bound_problems(calculators, *, gpu: Mapping[str, Any] | None = None, model: Mapping[str, Any] | None = None):
    """(calculator slug, message) for every calculator a single preset cannot fill; empty when all is well."""
    problems = []
    for calculator in calculators:
        try:
            inputs_for(calculator, gpu, model)
        except PresetError as error:
            problems.append((calculator.slug, error.message))
    return problems
