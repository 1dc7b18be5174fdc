"""Glossary terms in the admin: searchable by name and alias, the example's calculator inputs as real fields."""

from __future__ import annotations

from django.contrib import admin

from instructors.admin_base import VALUES, CalculatorValuesAdmin
from instructors.forms import CalculatorValuesForm, LinesField, MarkdownField, MarkdownWidget

from .models import Term


class TermForm(CalculatorValuesForm):
    calculator_optional = True
    aliases = LinesField(help_text="One per line: other names and abbreviations (TTFT, GQA…).")
    definition = MarkdownField(widget=MarkdownWidget(rows=4), help_text="Markdown: one paragraph.")
    example = MarkdownField(
        required=False, widget=MarkdownWidget(rows=4), help_text="Markdown: a worked example with numbers."
    )

    class Meta:
        model = Term
        exclude = ("values",)


@admin.register(Term)
class TermAdmin(CalculatorValuesAdmin):
    form = TermForm
    list_display = ("term", "slug", "alias_list", "calculator", "updated")
    list_filter = ("calculator",)
    search_fields = ("term", "slug", "aliases", "definition")
    prepopulated_fields = {"slug": ("term",)}
    autocomplete_fields = ("related",)
    fieldsets = (
        (None, {"fields": ("term", "slug", "aliases")}),
        ("Explanation", {"fields": ("definition", "example")}),
        ("The example's calculator (optional)", {"fields": ("calculator", VALUES)}),
        ("Related terms", {"fields": ("related",)}),
    )

    @admin.display(description="aliases")
    def alias_list(self, term: Term) -> str:
        return ", ".join(term.aliases)
