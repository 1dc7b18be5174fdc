"""GPU and model presets: shipped as content/presets/*.yaml, loaded by slug, editable by instructors.

A preset only fills calculator inputs; the arithmetic that turns one into
inputs is ``calculators.engine.presets``, which ``clean()`` also uses so a row
that would put a calculator out of its bounds is refused wherever it is edited.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models

from prepsite.content import SLUG_RE

from .engine import presets as engine_presets
from .engine import registry
from .engine.measured import problems as measurement_problems

# Model names carry dots (llama-3.1-405b, qwen2.5-72b), which Django's SlugField refuses.
preset_slug = RegexValidator(SLUG_RE, "Lower-case letters and digits, joined by single hyphens or dots.")


class GpuPreset(models.Model):
    slug = models.CharField(max_length=100, unique=True, validators=[preset_slug])
    name = models.CharField(max_length=100)
    order = models.PositiveIntegerField(default=0, help_text="Pickers list presets by this, then by slug.")
    peak_tflops = models.FloatField(
        "peak compute (TFLOP/s)", help_text="Dense 16-bit (bf16/fp16) tensor throughput; never the sparsity figure."
    )
    bandwidth_tbs = models.FloatField("memory bandwidth (TB/s)")
    memory_gb = models.FloatField("memory (GB)", help_text="As the datasheet prints it.")
    notes = models.TextField(help_text="Where each figure comes from: the datasheet's URL and the line it is on.")
    measurements = models.JSONField(
        blank=True,
        null=True,
        help_text="Microbenchmarks from a real chip (content/presets/measured/); shown beside the theory.",
    )

    class Meta:
        ordering = ("order", "slug")
        verbose_name = "GPU preset"

    def __str__(self) -> str:
        return self.name

    def as_engine_dict(self) -> dict:
        return {
            "name": self.name,
            "peak_tflops": self.peak_tflops,
            "bandwidth_tbs": self.bandwidth_tbs,
            "memory_gb": self.memory_gb,
        }

    def clean(self):
        errors = {}
        for field in ("peak_tflops", "bandwidth_tbs", "memory_gb"):
            value = getattr(self, field)
            if value is not None and not value > 0:
                errors[field] = "Must be more than 0."
        if not errors:
            problems = engine_presets.bound_problems(registry.all_calculators(), gpu=self.as_engine_dict())
            if problems:
                slug, message = problems[0]
                errors["peak_tflops"] = f"On {slug}: {message}"
        if self.measurements is not None:
            found = measurement_problems(self.measurements)
            if found:
                field, message = found[0]
                errors["measurements"] = f"{field}: {message}" if field else message
        if errors:
            raise ValidationError(errors)


class ModelPreset(models.Model):
    slug = models.CharField(max_length=100, unique=True, validators=[preset_slug])
    name = models.CharField(max_length=100)
    order = models.PositiveIntegerField(default=0, help_text="Pickers list presets by this, then by slug.")
    params_b = models.FloatField("parameters (billions)", help_text="All of them: every expert of a mixture.")
    active_params_b = models.FloatField(
        "active parameters (billions)",
        blank=True,
        null=True,
        help_text="Mixture-of-experts only: the parameters one token passes through. Empty for a dense model.",
    )
    layers = models.PositiveIntegerField()
    attention_heads = models.PositiveIntegerField()
    kv_heads = models.PositiveIntegerField(
        "KV heads", help_text="Key/value heads (grouped-query attention); these, not attention heads, set the cache."
    )
    head_dim = models.PositiveIntegerField("head dimension")
    notes = models.TextField(help_text="Where each figure comes from: the published config.json and its fields.")

    class Meta:
        ordering = ("order", "slug")
        verbose_name = "model preset"

    def __str__(self) -> str:
        return self.name

    def as_engine_dict(self) -> dict:
        return {
            "name": self.name,
            "params_b": self.params_b,
            "active_params_b": self.active_params_b,
            "layers": self.layers,
            "attention_heads": self.attention_heads,
            "kv_heads": self.kv_heads,
            "head_dim": self.head_dim,
        }

    def clean(self):
        errors = model_shape_errors(self.as_engine_dict())
        if not errors:
            problems = engine_presets.bound_problems(registry.all_calculators(), model=self.as_engine_dict())
            if problems:
                slug, message = problems[0]
                errors["params_b"] = f"On {slug}: {message}"
        if errors:
            raise ValidationError(errors)


def model_shape_errors(model: dict) -> dict[str, str]:
    """What is wrong with a model's shape, by field; the content loader says the same things."""
    errors = {}
    for field in ("params_b", "layers", "attention_heads", "kv_heads", "head_dim"):
        value = model.get(field)
        if value is not None and not value > 0:
            errors[field] = "Must be more than 0."
    active = model.get("active_params_b")
    if active is not None and not active > 0:
        errors["active_params_b"] = "Must be more than 0, or empty for a dense model."
    elif active is not None and model.get("params_b") is not None and active > model["params_b"]:
        errors["active_params_b"] = (
            f"Cannot exceed the total parameters ({model['params_b']:g} billion): memory holds every one."
        )
    heads, kv = model.get("attention_heads"), model.get("kv_heads")
    if heads and kv and "attention_heads" not in errors and "kv_heads" not in errors and heads % kv:
        errors["kv_heads"] = f"Must divide the {heads} attention heads evenly (each KV head serves a group of them)."
    return errors
