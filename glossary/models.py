"""Glossary terms: written in Markdown, rendered and sanitised once on save."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from prepsite.markup import Link, render_markdown


class Term(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    term = models.CharField(max_length=120, unique=True, help_text="As it reads at the start of a sentence.")
    aliases = models.JSONField(default=list, blank=True, help_text="Other names and abbreviations (TTFT, GQA…).")
    definition = models.TextField(help_text="Markdown: one paragraph.")
    example = models.TextField(blank=True, help_text="Markdown: a worked example with numbers.")
    calculator = models.CharField(
        max_length=60, blank=True, help_text="Slug of the calculator that computes the example (optional)."
    )
    values = models.JSONField(default=dict, blank=True, help_text="That calculator's inputs for the example.")
    related = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="related_from")
    definition_html = models.TextField(editable=False, default="")
    example_html = models.TextField(editable=False, default="")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("term",)

    def __str__(self) -> str:
        return self.term

    def save(self, *args, **kwargs):
        self.definition_html = render_markdown(self.definition)
        self.example_html = render_markdown(self.example)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("glossary:term", args=[self.slug])

    @property
    def initial(self) -> str:
        first = self.term[:1].upper()
        return first if first.isalpha() else "#"

    def clean(self) -> None:
        if not isinstance(self.aliases, list) or not all(isinstance(a, str) and a.strip() for a in self.aliases):
            raise ValidationError({"aliases": "Give the aliases as a list of names."})
        if self.calculator:
            from calculators.validation import calculator_value_errors, flat_errors

            errors = calculator_value_errors(self.calculator, self.values)
            if errors:
                field = "calculator" if "calculator" in errors else "values"
                raise ValidationError({field: flat_errors(errors)})

    def link(self) -> Link:
        return Link(key=self.slug, phrases=(self.term, *self.aliases), url=self.get_absolute_url(), title=self.term)
