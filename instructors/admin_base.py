"""What every content model's admin shares: history with revert, Markdown previews, the calculator's inputs."""

from __future__ import annotations

from copy import deepcopy

from django.contrib import admin
from django.http import HttpResponse
from reversion.admin import VersionAdmin

from prepsite.history import register_content_models

from .exchange import export_text
from .forms import CalculatorValuesForm

# Before any VersionAdmin registers them with relations followed: each row's history is its own.
register_content_models()

VALUES = "__calculator_values__"  # stands in a fieldset for the chosen calculator's inputs


class ContentAdmin(VersionAdmin):
    """History (who changed what, when) on every change page, newest first, with revert and recover."""

    history_latest_first = True
    save_on_top = True

    class Media:
        css = {"all": ["css/admin.css"]}
        js = ["js/admin.js"]


class CalculatorValuesAdmin(ContentAdmin):
    """Shows the inputs of the calculator being edited: the saved one, or the one just picked in the form."""

    form = CalculatorValuesForm

    def calculator_slug(self, request, obj) -> str:
        if request.method == "POST":
            return request.POST.get("calculator", "")
        return request.GET.get("calculator") or (obj.calculator if obj is not None else "")

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = self.form.for_calculator(self.calculator_slug(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        names = ["values_for", *self.form.value_field_names(self.calculator_slug(request, obj))]
        fieldsets = deepcopy(super().get_fieldsets(request, obj))
        for _, options in fieldsets:
            fields = list(options["fields"])
            if VALUES in fields:
                at = fields.index(VALUES)
                options["fields"] = fields[:at] + names + fields[at + 1 :]
        return fieldsets


@admin.action(description="Export selected banks (YAML)", permissions=["view"])
def export_banks(modeladmin, request, queryset):
    slugs = sorted(queryset.values_list("slug", flat=True))
    response = HttpResponse(export_text(slugs), content_type="application/yaml; charset=utf-8")
    name = slugs[0] if len(slugs) == 1 else f"{len(slugs)}-banks"
    response["Content-Disposition"] = f'attachment; filename="prepsite-{name}.yaml"'
    return response
