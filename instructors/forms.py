"""Admin form pieces: Markdown with a preview, lists as lines, a calculator's values as its own fields.

A question's (or a glossary example's) ``values`` is never edited as JSON: the
form shows the chosen calculator's inputs, each with its unit and bounds, and
checks them with that calculator's own form and rules (``calculators.validation``),
so the admin refuses exactly what a content file or a URL would, with the same
message beside the same input. A blank input means the calculator's default
and is not stored, as in the content files.
"""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.urls import reverse_lazy

from calculators.engine import registry
from calculators.engine.spec import Calculator, Param
from calculators.engine.units import num
from calculators.forms import NumberField, plain
from calculators.validation import checked
from prepsite.content import ContentError
from prepsite.markup import render_inline, render_markdown

VALUE_PREFIX = "value_"
REFRESH = "_calculator_inputs"


class MarkdownWidget(forms.Textarea):
    """A textarea with the rendered, sanitised HTML below it; static/js/admin.js refreshes it as you type."""

    template_name = "instructors/widgets/markdown.html"

    def __init__(self, *, inline: bool = False, rows: int = 6):
        self.inline = inline
        super().__init__(attrs={"rows": rows, "cols": 90, "data-markdown": "inline" if inline else "block"})

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        text = value or ""
        context["widget"]["preview"] = render_inline(text) if self.inline else render_markdown(text)
        context["widget"]["preview_url"] = reverse_lazy("instructors:preview")
        return context


class MarkdownField(forms.CharField):
    """Markdown text; browsers send CRLF line ends, stored text uses LF like the content files."""

    def to_python(self, value):
        value = super().to_python(value)
        return value.replace("\r\n", "\n").replace("\r", "\n") if isinstance(value, str) else value


class LinesField(forms.Field):
    """A list of short texts (checks, follow-ups, aliases) edited one per line."""

    widget = forms.Textarea(attrs={"rows": 4, "cols": 90})

    def __init__(self, *, required: bool = False, **kwargs):
        kwargs.setdefault("help_text", "One per line.")
        super().__init__(required=required, **kwargs)

    def prepare_value(self, value):
        if isinstance(value, list):
            return "\n".join(str(item) for item in value)
        return value

    def to_python(self, value):
        if isinstance(value, list):
            return [str(item).strip() for item in value if str(item).strip()]
        return [line.strip() for line in (value or "").splitlines() if line.strip()]

    def has_changed(self, initial, data):
        return self.to_python(initial) != self.to_python(data)


class ValueField(NumberField):
    """One calculator input; blank means "the calculator's default" and stores nothing."""

    def __init__(self, param: Param):
        super().__init__(
            param,
            required=False,
            widget=forms.TextInput(attrs={"inputmode": "decimal", "size": 12, "placeholder": plain(param.default)}),
        )
        unit = f" ({param.unit})" if param.unit else ""
        self.label = f"{param.label}{unit}"
        bounds = f"{num(param.minimum)} to {num(param.maximum)}{' ' + param.unit if param.unit else ''}"
        choices = "; ".join(f"{c} = {label}" for c, label in param.choices)
        self.help_text = " ".join(
            part
            for part in (
                param.help,
                f"Choose {choices}." if choices else f"From {bounds}{', whole numbers' if param.integer else ''}.",
                f"Blank: the default, {num(param.default)}.",
            )
            if part
        )

    def clean(self, value):
        if value is None or str(value).strip() == "":
            return None
        return super().clean(value)

    def has_changed(self, initial, data):
        def number(value):
            try:
                return self.to_python(value) if value is not None and str(value).strip() else None
            except forms.ValidationError:
                return str(value)

        return number(initial) != number(data)


def calculator_choices(optional: bool) -> list[tuple[str, str]]:
    choices = [(c.slug, f"{c.title} ({c.slug})") for c in registry.all_calculators()]
    return [("", "— none —"), *choices] if optional else [("", "— choose a calculator —"), *choices]


class CalculatorSelect(forms.Select):
    """The calculator picker with a button that shows the picked calculator's inputs (JS presses it on change)."""

    template_name = "instructors/widgets/calculator_select.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["refresh"] = REFRESH
        return context


def stored(value: float | int) -> float | int:
    """9, not 9.0, as the content files write it."""
    return int(value) if isinstance(value, float) and value.is_integer() and abs(value) < 1e15 else value


class CalculatorValuesForm(forms.ModelForm):
    """A ModelForm for a row with ``calculator`` and ``values``; ``for_calculator`` adds that calculator's inputs."""

    calculator_spec: Calculator | None = None
    calculator_optional = False
    values_for = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        spec = self.calculator_spec
        self.fields["calculator"] = forms.ChoiceField(
            choices=calculator_choices(self.calculator_optional),
            required=not self.calculator_optional,
            widget=CalculatorSelect,
            help_text="The live calculator for the worked answer. After changing it, check its inputs below.",
        )
        if spec is not None:
            self.fields["calculator"].initial = spec.slug
        stored_values = (self.instance.values or {}) if self.instance.pk or self.instance.values else {}
        for param in spec.params if spec else ():
            name = VALUE_PREFIX + param.name
            if name in self.fields and param.name in stored_values:
                self.fields[name].initial = plain(stored_values[param.name])
        # What the value inputs were drawn for: a form submitted for another calculator is shown again, not saved.
        self.submitted_for = None
        if self.is_bound:
            self.submitted_for = self.data.get(self.add_prefix("values_for"), "")
            self.data = self.data.copy()
            self.data[self.add_prefix("values_for")] = spec.slug if spec else ""
        self.fields["values_for"].initial = spec.slug if spec else ""
        self.cleaned_values: dict | None = None

    @classmethod
    def for_calculator(cls, slug: str | None) -> type[CalculatorValuesForm]:
        spec = registry.get(slug or "")
        fields = {VALUE_PREFIX + p.name: ValueField(p) for p in spec.params} if spec else {}
        return type(cls.__name__, (cls,), {"calculator_spec": spec, **fields})

    @classmethod
    def value_field_names(cls, slug: str | None) -> list[str]:
        spec = registry.get(slug or "")
        return [VALUE_PREFIX + p.name for p in spec.params] if spec else []

    def clean(self):
        cleaned = super().clean()
        spec = self.calculator_spec
        chosen = cleaned.get("calculator", self.data.get(self.add_prefix("calculator"), ""))
        redrawn = REFRESH in self.data or self.submitted_for != (spec.slug if spec else "")
        if redrawn and spec is not None:
            # Inputs drawn for another calculator (or none) were never seen for this one: show them, save nothing.
            raise forms.ValidationError(
                "These are the inputs of the %(title)s calculator. Check them, then save.",
                code="calculator_changed",
                params={"title": spec.title},
            )
        if spec is None or chosen != spec.slug:
            self.cleaned_values = {}
            return cleaned
        names = [p.name for p in spec.params]
        if any(VALUE_PREFIX + name in self.errors for name in names):
            return cleaned
        values = {name: stored(cleaned[VALUE_PREFIX + name]) for name in names
                  if cleaned.get(VALUE_PREFIX + name) is not None}  # fmt: skip
        full, errors = checked(spec.slug, values)
        for name, messages in errors.items():
            target = VALUE_PREFIX + name if VALUE_PREFIX + name in self.fields else None
            for message in messages:
                self.add_error(target, message)
        if full is not None:
            self.cleaned_values = values  # a question's checks against the worked answer: ContentRulesForm
        return cleaned

    def _post_clean(self):
        if self.cleaned_values is None and self._errors:
            return  # the inputs were not accepted: nothing will be saved, and the model's check would repeat them
        if self.cleaned_values is not None:
            self.instance.values = self.cleaned_values
        super()._post_clean()

    def _update_errors(self, errors):
        # The model's own clean() names "values"; here those are the inputs, so say it above them.
        if hasattr(errors, "error_dict") and "values" in errors.error_dict:
            errors.error_dict.setdefault(NON_FIELD_ERRORS, []).extend(errors.error_dict.pop("values"))
        super()._update_errors(errors)


class ContentRulesForm(forms.ModelForm):
    """Holds a row to the rules an import applies to its entry, so whatever the admin saves exports and imports
    back: the entry is read by the same function as a content file's (``question_record``, ``term_record``…),
    and its complaint appears beside the field it names. Runs last, once the form's own checks have passed."""

    def content_entry(self) -> dict:
        raise NotImplementedError

    def read_content_entry(self, entry: dict) -> None:
        """Read ``entry`` as an import would, raising ContentError; then any rule across the site's rows."""
        raise NotImplementedError

    def check_content_rules(self) -> None:
        if self.errors:
            return
        try:
            self.read_content_entry(self.content_entry())
        except ContentError as error:
            name = (error.field or "").rsplit(".", 1)[-1]
            if name == "values":
                name = ""  # the calculator's inputs: said above them
            message = error.message[:1].upper() + error.message[1:]
            self.add_error(
                name if name in self.fields else None, message if message.endswith((".", "?", "!")) else f"{message}."
            )

    def clean(self):
        cleaned = super().clean()
        self.check_content_rules()
        return cleaned
