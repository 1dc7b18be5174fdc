"""Every bound of every practice input lives here; a bad value is a form error, never an exception."""

from __future__ import annotations

import math

from django import forms
from django.contrib.auth.forms import UserCreationForm

from questions.models import Bank, Difficulty, Question

from . import scheduling
from .models import MAX_NEW_LIMIT, MIN_NEW_LIMIT

MAX_ANSWER = 5000
MAX_DURATION_MS = 24 * 3600 * 1000  # a day: longer is a tab left open, not an answer time


class SetupForm(forms.Form):
    banks = forms.ModelMultipleChoiceField(
        queryset=Bank.objects.all(),
        to_field_name="slug",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every bank.",
    )
    difficulties = forms.MultipleChoiceField(
        choices=Difficulty.choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Levels",
        help_text="None ticked: every level.",
    )
    desired_retention = forms.FloatField(
        min_value=scheduling.MIN_RETENTION,
        max_value=scheduling.MAX_RETENTION,
        label="Desired retention",
        help_text="The chance of recalling a question when it comes due: higher means more frequent reviews.",
        widget=forms.NumberInput(attrs={"step": "0.01"}),
    )
    daily_new_limit = forms.IntegerField(
        min_value=MIN_NEW_LIMIT,
        max_value=MAX_NEW_LIMIT,
        label="New questions per day",
        help_text="Reviews of questions already started are never limited.",
    )

    def clean_desired_retention(self) -> float:
        value = self.cleaned_data["desired_retention"]
        if not math.isfinite(value):  # FloatField refuses nan/inf already; kept for safety of the bound
            raise forms.ValidationError("Enter a number.")
        return round(value, 4)


class ReviewForm(forms.Form):
    question = forms.ModelChoiceField(queryset=Question.objects.all(), to_field_name="slug", widget=forms.HiddenInput)
    rating = forms.TypedChoiceField(
        choices=[(str(int(r)), name) for r, name, _ in scheduling.RATINGS], coerce=int, empty_value=None
    )
    seen = forms.IntegerField(min_value=0, max_value=1_000_000, widget=forms.HiddenInput)
    duration_ms = forms.IntegerField(min_value=0, max_value=MAX_DURATION_MS, required=False, widget=forms.HiddenInput)
    shown_at = forms.IntegerField(min_value=0, max_value=10**14, required=False, widget=forms.HiddenInput)
    answer = forms.CharField(
        max_length=MAX_ANSWER,
        required=False,
        strip=True,
        label="Your answer (optional)",
        widget=forms.Textarea(attrs={"rows": 4, "placeholder": "Answer in your own words before you look."}),
    )


class ResetForm(forms.Form):
    confirm = forms.BooleanField(
        label="Yes, delete all my practice progress",
        error_messages={"required": "Tick the box to confirm: reset deletes every card and review."},
    )


class RegisterForm(UserCreationForm):
    """Django's own: a username and a password checked by the site's password validators."""
