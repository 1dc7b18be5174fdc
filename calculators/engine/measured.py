"""Measurements from a real chip, put beside the theory.

The data is the microbenchmark file shipped in content/presets/measured/ (for
now one NVIDIA H200; its ``notes`` say how each figure was taken). It reaches
the engine as a mapping on the GPU preset, never read from disk here.

Comparisons use the measurement's own assumptions: the "70B-shaped layer" is
one Llama-3-70B layer's weight GEMMs (no attention, no KV cache, no embeddings)
timed alone and multiplied by 80 layers, so the prediction beside it reads the
same 80 × weight bytes at the datasheet bandwidth and does the same
2 × parameters × batch FLOPs at the datasheet peak. fp8 runs on tensor cores
with twice the dense 16-bit peak (H200: 1,979 against 989 TFLOP/s).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

LAYERS = 80  # Llama-3-70B has 80 of the measured layer
FP8_PEAK_FACTOR = 2.0
BYTES_PER_PARAM = {"bf16": 2, "fp8": 1}

# The sections the overlays read and the keys each entry of a list section needs.
REQUIRED: dict[str, tuple[str, ...]] = {
    "copy_bandwidth": ("copy_TBps",),
    "gemm_sweep_bf16": ("M", "N", "K", "intensity", "TFLOPs"),
    "gemm_fp8": ("M", "N", "K", "intensity", "TFLOPs"),
    "llama70b_layer_decode_bf16": ("batch", "layer_s", "weight_bytes_per_layer", "tokens_per_s_80_layers"),
    "llama70b_layer_decode_fp8": ("batch", "layer_s", "weight_bytes_per_layer", "tokens_per_s_80_layers"),
}


def problems(data: Any) -> list[tuple[str, str]]:
    """(field, message) for everything wrong with a measurement file; empty when the overlays can use it."""
    if not isinstance(data, Mapping):
        return [("", "must be a JSON object")]
    found: list[tuple[str, str]] = []
    if not isinstance(data.get("device"), str) or not data["device"].strip():
        found.append(("device", "must name the device measured"))
    if not isinstance(data.get("notes"), Mapping) or not data["notes"]:
        found.append(("notes", "must say how each section was measured"))
    sections = data.get("sections")
    if not isinstance(sections, Mapping):
        return [*found, ("sections", "must be an object of measurement sections")]
    for name, keys in REQUIRED.items():
        section = sections.get(name)
        entries = [section] if name == "copy_bandwidth" else section
        if not isinstance(entries, list) or not entries:
            found.append((f"sections.{name}", "is missing or empty"))
            continue
        for index, entry in enumerate(entries):
            where = f"sections.{name}" if name == "copy_bandwidth" else f"sections.{name}[{index}]"
            if not isinstance(entry, Mapping):
                found.append((where, "must be an object"))
                continue
            for key in keys:
                value = entry.get(key)
                if (
                    isinstance(value, bool)
                    or not isinstance(value, int | float)
                    or not math.isfinite(value)
                    or value <= 0
                ):
                    found.append((f"{where}.{key}", f"must be a positive finite number, not {value!r}"))
    return found


@dataclass(frozen=True)
class Measured:
    """One chip's measurements with the datasheet figures they are compared against."""

    device: str  # as the legend names it: "H200"
    peak_tflops: float  # datasheet, dense 16-bit
    bandwidth_tbs: float  # datasheet
    data: Mapping[str, Any]

    @classmethod
    def from_preset(cls, data: Mapping[str, Any], peak_tflops: float, bandwidth_tbs: float) -> Measured:
        device = str(data.get("device", "")).removeprefix("NVIDIA ").strip() or "measured GPU"
        return cls(device, float(peak_tflops), float(bandwidth_tbs), data)

    @property
    def copy_tbs(self) -> float:
        return float(self.data["sections"]["copy_bandwidth"]["copy_TBps"])

    def gemms(self, precision: str) -> list[Mapping[str, Any]]:
        return list(self.data["sections"]["gemm_sweep_bf16" if precision == "bf16" else "gemm_fp8"])

    def layer(self, precision: str) -> list[Mapping[str, Any]]:
        return sorted(self.data["sections"][f"llama70b_layer_decode_{precision}"], key=lambda e: e["batch"])

    def layer_at(self, precision: str, batch: int) -> Mapping[str, Any] | None:
        return next((e for e in self.layer(precision) if e["batch"] == batch), None)

    def peak_for(self, precision: str) -> float:
        return self.peak_tflops * (FP8_PEAK_FACTOR if precision == "fp8" else 1.0)

    def predicted_layer_s(self, precision: str, batch, weight_bytes_per_layer: float):
        """The roofline prediction for one measured layer: max(weight read, arithmetic); batch may be an array."""
        params = weight_bytes_per_layer / BYTES_PER_PARAM[precision]
        read = weight_bytes_per_layer / (self.bandwidth_tbs * 1e12)
        return np.maximum(read, 2 * params * np.asarray(batch, dtype=float) / (self.peak_for(precision) * 1e12))

    def predicted_tokens_per_s(self, precision: str, batch: int, weight_bytes_per_layer: float) -> float:
        return float(batch / (LAYERS * self.predicted_layer_s(precision, batch, weight_bytes_per_layer)))


def series(entries: Sequence[Mapping[str, Any]], x: str, y: str) -> tuple[list[float], list[float]]:
    return [float(e[x]) for e in entries], [float(e[y]) for e in entries]
