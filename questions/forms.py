"""The mock interview's setup form: which banks, which difficulties, how many questions, how long each."""

from __future__ import annotations

from django import forms

from calculators.engine.units import count as counted
from calculators.engine.units import plural

from . import mock
from .models import Bank, Difficulty, Question


class MockSetupForm(forms.Form):
    banks = forms.MultipleChoiceField(
        label="Banks",
        error_messages={
            "required": "Choose at least one bank.",
            "invalid_choice": "There is no bank called “%(value)s”.",
        },
    )
    difficulties = forms.MultipleChoiceField(
        label="Difficulties",
        choices=Difficulty.choices,
        required=False,
        error_messages={"invalid_choice": "There is no difficulty called “%(value)s”: choose warm-up, core or hard."},
    )
    count = forms.IntegerField(
        label="Questions",
        min_value=mock.MIN_COUNT,
        max_value=mock.MAX_COUNT,
        initial=mock.DEFAULT_COUNT,
        error_messages={
            "required": "Say how many questions to ask.",
            "invalid": "Give the number of questions as a whole number.",
            "min_value": f"Ask for at least {mock.MIN_COUNT} question.",
            "max_value": f"Ask for at most {mock.MAX_COUNT} questions.",
        },
    )
    minutes = forms.IntegerField(
        label="Minutes per question",
        min_value=mock.MIN_MINUTES,
        max_value=mock.MAX_MINUTES,
        initial=mock.DEFAULT_MINUTES,
        error_messages={
            "required": "Say how many minutes each question gets.",
            "invalid": "Give the minutes per question as a whole number.",
            "min_value": f"Give each question at least {mock.MIN_MINUTES} minute.",
            "max_value": f"Give each question at most {mock.MAX_MINUTES} minutes.",
        },
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.bank_list = list(Bank.objects.order_by("order", "title"))
        self.fields["banks"].choices = [(b.slug, b.title) for b in self.bank_list]
        self.pool: list[Question] = []

    def clean(self):
        data = super().clean()
        banks, count = data.get("banks"), data.get("count")
        if not banks or "difficulties" not in data:
            return data
        pool = Question.objects.filter(bank__slug__in=banks)
        if data["difficulties"]:
            pool = pool.filter(difficulty__in=data["difficulties"])
        self.pool = list(pool.prefetch_related("terms"))
        if not self.pool:
            self.add_error(None, "No question matches those banks and difficulties: choose more of either.")
        elif count is not None and count > len(self.pool):
            matches = len(self.pool)
            self.add_error(
                "count",
                f"Only {counted(matches, 'question')} {plural(matches, 'matches', 'match')} those banks "
                f"and difficulties: ask for {matches} or fewer, or choose more.",
            )
        return data

    def drawable(self) -> list[mock.Drawable]:
        return [
            mock.Drawable(
                slug=q.slug,
                title=q.title,
                points=len(q.strong_answer),
                terms=tuple(sorted(t.slug for t in q.terms.all())),
            )
            for q in self.pool
        ]
