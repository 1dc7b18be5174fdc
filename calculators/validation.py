"""Checking stored calculator values (a question's starting values, a glossary example).

Content is held to the same bounds and rules as a visitor's query string: the
calculator's own form decides, so a value refused in the URL is refused in a
content file or the admin too, with the same message.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from .engine import registry
from .engine.spec import Result
from .forms import form_class, plain


def checked(slug: str, values: Any) -> tuple[dict | None, dict[str, list[str]]]:
    """Stored values cleaned by the calculator's own form, or None and the messages by input name.

    "calculator" names the slug itself when there is no such calculator.
    """
    calculator = registry.get(slug or "")
    if calculator is None:
        known = ", ".join(c.slug for c in registry.all_calculators())
        return None, {"calculator": [f"There is no calculator called “{slug}”. Known: {known}."]}
    if not isinstance(values, dict):
        return None, {"values": ["Give the values as a mapping of input name to number."]}
    names = {p.name for p in calculator.params}
    errors: dict[str, list[str]] = {}
    for name in values:
        if name not in names:
            errors[name] = [
                f"The {calculator.slug} calculator has no input called “{name}”. Inputs: {', '.join(sorted(names))}."
            ]
    data = {}
    for param in calculator.params:
        value = values.get(param.name, param.default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            errors.setdefault(param.name, []).append(f"Must be a number, not {value!r}.")
            continue
        data[param.name] = plain(value)
    if errors:
        return None, errors
    form = form_class(calculator)(data)
    if not form.is_valid():
        return None, {name: list(messages) for name, messages in form.errors.items()}
    return form.cleaned_data, {}


def calculator_value_errors(slug: str, values: Any) -> dict[str, list[str]]:
    """Messages by input name; empty when all is well."""
    return checked(slug, values)[1]


def flat_errors(errors: dict[str, list[str]]) -> list[str]:
    return [f"{name}: {message}" if name not in {"calculator", "__all__"} else message
            for name, messages in errors.items() for message in messages]  # fmt: skip


def result_or_errors(slug: str, values: Any) -> tuple[Result | None, list[str]]:
    """The result at stored values, or the messages saying why there is none (never an exception).

    Stored values were valid when saved, but a calculator's bounds can change
    later: a page then says what is wrong instead of failing.
    """
    cleaned, errors = checked(slug, values)
    if cleaned is None:
        return None, flat_errors(errors)
    return registry.get(slug).run(cleaned), []


def calculator_url(slug: str, values: dict[str, Any]) -> str:
    """The calculator's page at these values, written the way the number boxes write them.

    In the calculator's own input order, so a link reads the same whichever database stored the values
    (PostgreSQL's jsonb reorders keys); names the calculator does not know go last, as given.
    """
    url = reverse("calculators:detail", args=[slug])
    calculator = registry.get(slug)
    order = {p.name: i for i, p in enumerate(calculator.params)} if calculator else {}
    names = sorted(values, key=lambda name: order.get(name, len(order)))
    return f"{url}?{urlencode({name: plain(values[name]) for name in names})}" if values else url
