"""Forms derived from the calculator specs: every bound lives in a field.

Query strings are parsed strictly: plain ASCII decimal numbers only. Python's
float() would also take "nan", "inf", "1_000" and Unicode digits, and a huge
exponent overflows to infinity; none of those is a value a person means.
"""

from __future__ import annotations

import copy
import math
import re
from functools import cache

from django import forms

from .engine.spec import Calculator, Param
from .engine.units import num

NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)


class NumberField(forms.Field):
    """A bounded number from a query string, with messages a person can act on."""

    def __init__(self, param: Param, **kwargs):
        self.param = param
        super().__init__(label=param.label, help_text=param.help, **kwargs)

    def __deepcopy__(self, memo):
        # Django deep-copies every field, widget and validator list for each bound
        # form, so that a form may change them. These never change: a shallow copy
        # is a third of the cost of a slider update's form.
        return copy.copy(self)

    def to_python(self, value):
        if value is None:
            raise forms.ValidationError("Enter a value.", code="required")
        text = str(value).strip()
        if text == "":
            raise forms.ValidationError(
                "Enter a value (or leave the parameter out to use the default).", code="required"
            )
        if NOT_FINITE.fullmatch(text):
            raise forms.ValidationError(
                "Enter a finite number, not “%(value)s”.", code="finite", params={"value": text}
            )
        if not NUMBER.fullmatch(text):
            raise forms.ValidationError(
                "Enter a number, such as %(example)s.", code="invalid", params={"example": num(self.param.default)}
            )
        number = float(text)
        if not math.isfinite(number):
            raise forms.ValidationError("That number is too large.", code="finite")
        return number

    def validate(self, value):
        p = self.param
        if value < p.minimum:
            raise forms.ValidationError(
                "Must be at least %(limit)s.", code="min_value", params={"limit": num(p.minimum)}
            )
        if value > p.maximum:
            raise forms.ValidationError(
                "Must be at most %(limit)s.", code="max_value", params={"limit": num(p.maximum)}
            )
        if p.choices and value not in {c for c, _ in p.choices}:
            options = " or ".join(f"{c} ({label})" for c, label in p.choices)
            raise forms.ValidationError("Choose %(options)s.", code="choice", params={"options": options})
        if p.integer and value != int(value):
            raise forms.ValidationError("Enter a whole number.", code="integer")

    def clean(self, value):
        number = self.to_python(value)
        self.validate(number)
        return self.param.coerce(number)


class CalculatorForm(forms.Form):
    calculator: Calculator

    def clean(self):
        cleaned = super().clean()
        if not self.errors:
            for name, messages in self.calculator.rules(cleaned).items():
                for message in messages:
                    self.add_error(name, message)
        return cleaned


@cache
def form_class(calculator: Calculator) -> type[CalculatorForm]:
    fields = {p.name: NumberField(p) for p in calculator.params}
    return type(
        f"{calculator.slug.title().replace('-', '')}Form", (CalculatorForm,), {"calculator": calculator, **fields}
    )


def plain(value: float | int) -> str:
    """A value as it goes in a number box or a link: 9, not 9.0; 3.35; 1e-06."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def form_data(calculator: Calculator, query, filled: dict[str, float | int] | None = None) -> dict[str, str]:
    """Each input's raw text: the query's, else what a preset filled, else the default. ``name=`` stays empty.

    Explicit parameters always win over presets.
    """
    filled = filled or {}
    return {
        p.name: query[p.name] if p.name in query else plain(filled.get(p.name, p.coerce(p.default)))
        for p in calculator.params
    }


def bind(calculator: Calculator, query, filled: dict[str, float | int] | None = None) -> CalculatorForm:
    """A bound form over ``form_data``: it reports every error, beside its field."""
    return form_class(calculator)(form_data(calculator, query, filled))


def valid_values(calculator: Calculator, query, filled: dict[str, float | int] | None = None) -> dict | None:
    """The cleaned values when every input is valid, by the form's own fields and rules; None if any is not.

    A bound form's machinery costs about 0.1 ms, a tenth of a slider update: the
    common, valid case runs the same field cleaning without it, and callers build
    the form only to report errors (or to draw the inputs on a full page).
    """
    data = form_data(calculator, query, filled)
    values = {}
    for name, field in form_class(calculator).base_fields.items():
        try:
            values[name] = field.clean(data[name])
        except forms.ValidationError:
            return None
    return None if calculator.rules(values) else values


def fallback_values(form: CalculatorForm) -> dict[str, float | int]:
    """The values to show a result for while some are wrong: the valid ones, defaults elsewhere.

    If the mix still breaks a cross-field rule, every default.
    """
    calculator = form.calculator
    values = dict(calculator.defaults)
    for name, value in getattr(form, "cleaned_data", {}).items():
        if name not in form.errors:
            values[name] = value
    if calculator.rules(values):
        return dict(calculator.defaults)
    return values
