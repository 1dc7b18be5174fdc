"""The declarative shape every calculator is written in.

One ``Calculator`` per module under ``calculators.engine.specs``. The form,
the page, the htmx fragment and the JSON API are all derived from it, so a
new calculator is one new module (and its tests), nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .figures import round_traces

if TYPE_CHECKING:
    from .measured import Measured

Values = Mapping[str, float]
Outputs = dict[str, Any]


@dataclass(frozen=True)
class Param:
    """One input: a query parameter, a slider and a number box.

    ``minimum``/``maximum`` are the accepted bounds (the public contract);
    ``slider_min``/``slider_max`` only narrow the slider's travel to a range
    worth dragging over. ``log`` makes the slider move on a log scale, for
    inputs that span several orders of magnitude.
    """

    name: str
    label: str
    unit: str
    default: float
    minimum: float
    maximum: float
    step: float = 1
    integer: bool = False
    log: bool = False
    slider_min: float | None = None
    slider_max: float | None = None
    choices: tuple[tuple[int, str], ...] = ()
    help: str = ""

    @property
    def slider_low(self) -> float:
        return self.minimum if self.slider_min is None else self.slider_min

    @property
    def slider_high(self) -> float:
        return self.maximum if self.slider_max is None else self.slider_max

    def coerce(self, value: float) -> float | int:
        """The value as the calculator uses it (ints stay ints in the JSON)."""
        return int(value) if self.integer or self.choices else float(value)


@dataclass(frozen=True)
class Headline:
    """An output shown as a headline figure above the worked steps."""

    name: str
    label: str
    format: Callable[[Any], str]


@dataclass(frozen=True)
class Explanation:
    steps: list[str]
    conclusion: str


@dataclass(frozen=True)
class Overlay:
    """What measurements add to a result: worked-answer lines and traces per chart index."""

    steps: list[str]
    traces: dict[int, list[dict]]


@dataclass(frozen=True)
class Calculator:
    slug: str
    title: str
    summary: str
    order: int
    params: tuple[Param, ...]
    compute: Callable[[Values], Outputs]
    explain: Callable[[Values, Outputs], Explanation]
    charts: Callable[[Values, Outputs], list[dict]]
    headlines: tuple[Headline, ...] = ()
    # Cross-field rules: return {param name: [message, ...]} for broken ones.
    rules: Callable[[Values], dict[str, list[str]]] = field(default=lambda values: {})
    # Measurements from a real chip beside the theory: extra worked steps and chart traces.
    overlay: Callable[[Values, Outputs, Measured], Overlay] | None = None

    @property
    def defaults(self) -> dict[str, float | int]:
        return {p.name: p.coerce(p.default) for p in self.params}

    def param(self, name: str) -> Param:
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def run(self, values: Values, measured: Measured | None = None) -> Result:
        """Compute everything for already-validated values, with a chip's measurements beside them if given."""
        inputs = {p.name: p.coerce(values[p.name]) for p in self.params}
        outputs = {k: finite_or_none(v) for k, v in self.compute(inputs).items()}
        explanation = self.explain(inputs, outputs)
        steps, charts = list(explanation.steps), self.charts(inputs, outputs)
        if measured is not None and self.overlay is not None:
            extra = self.overlay(inputs, outputs, measured)
            steps += extra.steps
            for index, traces in extra.traces.items():
                round_traces(traces)
                charts[index]["data"] += traces
        return Result(
            calculator=self,
            inputs=inputs,
            outputs=outputs,
            steps=steps,
            conclusion=explanation.conclusion,
            charts=charts,
        )


@dataclass(frozen=True)
class Result:
    calculator: Calculator
    inputs: dict[str, float | int]
    outputs: Outputs
    steps: list[str]
    conclusion: str
    charts: list[dict]

    @property
    def headlines(self) -> list[tuple[str, str]]:
        return [(h.label, h.format(self.outputs[h.name])) for h in self.calculator.headlines]

    def as_json(self) -> dict:
        return {
            "slug": self.calculator.slug,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "steps": self.steps,
            "conclusion": self.conclusion,
            "charts": self.charts,
        }


def finite_or_none(value: Any) -> Any:
    """Outputs are plain JSON: a float that is not finite becomes null, and an
    integer too large for a JSON reader's 64-bit integers becomes a float."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, int) and abs(value) > 2**53:
        return float(value)
    return value
