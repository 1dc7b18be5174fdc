"""Glossary terms in the admin: searchable by name and alias, the example's calculator inputs as real fields."""

from __future__ import annotations

from pathlib import Path

from django.contrib import admin

from instructors.admin_base import VALUES, CalculatorValuesAdmin
from instructors.forms import CalculatorValuesForm, ContentRulesForm, LinesField, MarkdownField, MarkdownWidget

from .content import check_terms, term_record
from .models import Term


class TermForm(ContentRulesForm, CalculatorValuesForm):
    calculator_optional = True
    aliases = LinesField(help_text="One per line: other names and abbreviations (TTFT, GQA…).")
    definition = MarkdownField(widget=MarkdownWidget(rows=4), help_text="Markdown: one paragraph.")
    example = MarkdownField(
        required=False, widget=MarkdownWidget(rows=4), help_text="Markdown: a worked example with numbers."
    )

    class Meta:
        model = Term
        exclude = ("values",)

    def content_entry(self) -> dict:
        data = self.cleaned_data
        entry = {key: data.get(key) for key in ("slug", "term", "aliases", "definition", "example")}
        entry["calculator"] = self.calculator_spec.slug if self.calculator_spec else ""
        entry["values"] = self.cleaned_values or {}
        entry["related"] = sorted(term.slug for term in data.get("related") or [])
        return entry

    def read_content_entry(self, entry: dict) -> None:
        """As an import reads it, and then as the glossary's rules take it beside every other term: each name and
        alias names one term only, and a term is not related to itself."""
        others = Term.objects.exclude(pk=self.instance.pk) if self.instance.pk else Term.objects.all()
        existing = {term.slug: [term.term, *term.aliases] for term in others.only("slug", "term", "aliases")}
        check_terms([term_record(Path("admin"), entry)], existing)


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
