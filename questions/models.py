"""Question banks and their questions. Markdown is rendered and sanitised on save."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from prepsite.markup import render_inline, render_markdown


class Bank(models.Model):
    slug = models.SlugField(max_length=100, unique=True)
    title = models.CharField(max_length=200)
    order = models.PositiveIntegerField(default=0, help_text="Banks are listed by this number.")
    summary = models.TextField(blank=True, help_text="Markdown: what the bank covers.")
    summary_html = models.TextField(editable=False, default="")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("order", "title")

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs):
        self.summary_html = render_markdown(self.summary)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("questions:bank", args=[self.slug])


class Difficulty(models.TextChoices):
    WARM_UP = "warm-up", "Warm-up"
    CORE = "core", "Core"
    HARD = "hard", "Hard"


class Question(models.Model):
    bank = models.ForeignKey(Bank, on_delete=models.PROTECT, related_name="questions")
    slug = models.SlugField(max_length=100, unique=True)
    order = models.PositiveIntegerField(default=0, help_text="Position in its bank.")
    title = models.CharField(max_length=200, help_text="Short, for lists.")
    difficulty = models.CharField(max_length=10, choices=Difficulty.choices)
    question = models.TextField(help_text="Markdown: the question as an interviewer asks it.")
    answer = models.TextField(help_text="Markdown: the plain-language answer.")
    takeaway = models.CharField(max_length=300, help_text="One line.")
    calculator = models.CharField(max_length=60, help_text="Slug of the live calculator for the worked answer.")
    values = models.JSONField(default=dict, blank=True, help_text="The calculator's starting values.")
    checks = models.JSONField(
        default=list, blank=True, help_text="Text the worked answer at these values must show (kept true on load)."
    )
    follow_ups = models.JSONField(default=list, blank=True)
    strong_answer = models.JSONField(default=list, blank=True)
    red_flags = models.JSONField(default=list, blank=True)
    terms = models.ManyToManyField("glossary.Term", blank=True, related_name="questions")
    question_html = models.TextField(editable=False, default="")
    answer_html = models.TextField(editable=False, default="")
    takeaway_html = models.TextField(editable=False, default="")
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("bank__order", "order", "title")

    def __str__(self) -> str:
        return self.title

    def save(self, *args, **kwargs):
        self.question_html = render_markdown(self.question)
        self.answer_html = render_markdown(self.answer)
        self.takeaway_html = render_inline(self.takeaway)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("questions:question", args=[self.slug])

    def calculator_url(self) -> str:
        from calculators.validation import calculator_url

        return calculator_url(self.calculator, self.values)

    def clean(self) -> None:
        from calculators.validation import calculator_value_errors, flat_errors

        errors = calculator_value_errors(self.calculator, self.values)
        if errors:
            field = "calculator" if "calculator" in errors else "values"
            raise ValidationError({field: flat_errors(errors)})
