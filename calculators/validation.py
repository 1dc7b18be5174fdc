"""Checking stored calculator values (a question's starting values, a glossary example).

Content is held to the same bounds and rules as a visitor's query string: the
calculator's own form decides, so a value refused in the URL is refused in a
content file or the admin too, with the same message.
"""

from __future__ import annotations

from typing import Any

from .engine import registry
from .engine.spec import Result
from .forms import form_class, plain


def calculator_value_errors(slug: str, values: Any) -> dict[str, list[str]]:
    """Messages by input name ("calculator" for the slug itself); empty when all is well."""
    calculator = registry.get(slug or "")
    if calculator is None:
        known = ", ".join(c.slug for c in registry.all_calculators())
        return {"calculator": [f"There is no calculator called “{slug}”. Known: {known}."]}
    if not isinstance(values, dict):
        return {"values": ["Give the values as a mapping of input name to number."]}
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
        return errors
    form = form_class(calculator)(data)
    if not form.is_valid():
        return {name: list(messages) for name, messages in form.errors.items()}
    return {}


def flat_errors(errors: dict[str, list[str]]) -> list[str]:
    return [f"{name}: {message}" if name not in {"calculator", "__all__"} else message
            for name, messages in errors.items() for message in messages]  # fmt: skip


def run_at(slug: str, values: dict[str, Any]) -> Result:
    """The calculator's result at stored values (validated first: callers check errors)."""
    calculator = registry.get(slug)
    if calculator is None:
        raise LookupError(slug)
    form = form_class(calculator)({p.name: plain(values.get(p.name, p.default)) for p in calculator.params})
    if not form.is_valid():
        raise ValueError(flat_errors({k: list(v) for k, v in form.errors.items()}))
    return calculator.run(form.cleaned_data)


def result_or_errors(slug: str, values: Any) -> tuple[Result | None, list[str]]:
    """The result at stored values, or the messages saying why there is none (never an exception).

    Stored values were valid when saved, but a calculator's bounds can change
    later: a page then says what is wrong instead of failing.
    """
    errors = calculator_value_errors(slug, values)
    if errors:
        return None, flat_errors(errors)
    return run_at(slug, values), []


def query_string(values: dict[str, Any]) -> str:
    """Values as a link's query string, written the way the number boxes write them."""
    from urllib.parse import urlencode

    return urlencode({name: plain(value) for name, value in values.items()})
