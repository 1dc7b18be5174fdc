"""GPU and model presets in the admin; a preset that would push a calculator out of bounds is refused (clean())."""

from __future__ import annotations

from django.contrib import admin

from instructors.admin_base import ContentAdmin

from .models import GpuPreset, ModelPreset


@admin.register(GpuPreset)
class GpuPresetAdmin(ContentAdmin):
    list_display = ("name", "slug", "order", "peak_tflops", "bandwidth_tbs", "memory_gb", "measured")
    list_editable = ("order",)
    search_fields = ("name", "slug", "notes")
    prepopulated_fields = {"slug": ("name",)}
    fields = ("name", "slug", "order", "peak_tflops", "bandwidth_tbs", "memory_gb", "notes", "measurements")

    @admin.display(boolean=True, description="measured")
    def measured(self, preset: GpuPreset) -> bool:
        return preset.measurements is not None


@admin.register(ModelPreset)
class ModelPresetAdmin(ContentAdmin):
    list_display = ("name", "slug", "order", "params_b", "active_params_b", "layers", "kv_heads", "head_dim")
    list_editable = ("order",)
    list_filter = (("active_params_b", admin.EmptyFieldListFilter),)
    search_fields = ("name", "slug", "notes")
    prepopulated_fields = {"slug": ("name",)}
    fields = ("name", "slug", "order", "params_b", "active_params_b", "layers", "attention_heads", "kv_heads",
              "head_dim", "notes")  # fmt: skip
