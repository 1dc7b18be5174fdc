"""Inputs that several calculators share, defined once.

A chip's peak compute and bandwidth and a model's size mean the same thing
on every page that asks for them, so they carry the same label, bounds and
slider everywhere (and presets can fill them by name).
"""

from __future__ import annotations

from .spec import Param
from .units import num


def params_b(default: float = 70) -> Param:
    return Param(
        "params_b",
        "Model parameters",
        "billion",
        default,
        0.1,
        5000,
        step=0.1,
        log=True,
        slider_min=0.5,
        slider_max=2000,
        help="Total parameters; every one is read at each decode step.",
    )


def bytes_per_param(default: float = 2) -> Param:
    return Param(
        "bytes_per_param",
        "Bytes per parameter",
        "bytes",
        default,
        0.25,
        4,
        step=0.25,
        help="2 = 16-bit weights, 1 = 8-bit, 0.5 = 4-bit.",
    )


def peak_tflops(default: float = 989) -> Param:
    return Param(
        "peak_tflops",
        "Peak compute (dense 16-bit)",
        "TFLOP/s",
        default,
        1,
        100_000,
        log=True,
        slider_min=10,
        slider_max=20_000,
        help="Dense throughput at the precision the matmuls run in.",
    )


def bandwidth_tbs(default: float = 3.35) -> Param:
    return Param(
        "bandwidth_tbs",
        "Memory bandwidth",
        "TB/s",
        default,
        0.01,
        100,
        step=0.01,
        log=True,
        slider_min=0.1,
        slider_max=20,
    )


def kv_bytes_per_token(minimum: float) -> Param:
    """Bytes of KV cache one token holds; the contract lets batching take 0 (weights only)."""
    return Param(
        "kv_bytes_per_token",
        "KV cache per token",
        "bytes",
        163_840,
        minimum,
        1e9,
        integer=True,
        log=True,
        slider_min=1024,
        slider_max=8_388_608,
        help="2 × layers × KV heads × head dim × bytes per element; 163,840 bytes = 160 KiB.",
    )


def active_params_b() -> Param:
    """Mixture-of-experts: parameters a token passes through. 0 keeps every calculator's dense answer."""
    return Param(
        "active_params_b",
        "Active parameters (mixture-of-experts)",
        "billion",
        0,
        0,
        5000,
        step=0.1,
        log=True,
        slider_min=0.5,
        slider_max=2000,
        help="0 = dense: every parameter is active. A mixture-of-experts model holds all its experts in memory "
        "but spends FLOPs only on the ones a token is routed to (Mixtral 8x7B: 12.9 of 46.7 billion).",
    )


def active_rule(v) -> dict[str, list[str]]:
    """Active parameters are some of the model's parameters, never more."""
    if v["active_params_b"] > v["params_b"]:
        return {
            "active_params_b": [
                f"Active parameters ({num(v['active_params_b'])} billion) cannot exceed the model's total "
                f"({num(v['params_b'])} billion): lower them, or use 0 for a dense model."
            ]
        }
    return {}


def active_b(v) -> float:
    """Billions of parameters that do arithmetic for each token."""
    return v["active_params_b"] or v["params_b"]


def moe_note(v) -> str:
    """The worked-answer clause for a mixture-of-experts model, or nothing for a dense one."""
    if not v["active_params_b"] or v["active_params_b"] == v["params_b"]:
        return ""
    return (
        f"The model holds {num(v['params_b'])} B parameters in memory but spends FLOPs on "
        f"{num(v['active_params_b'])} B active (mixture-of-experts). "
    )
