"""Every corner of every input box gives finite numbers (or null with a flag),
a readable worked answer and charts plotly accepts."""

import math

import orjson
import plotly.graph_objects as go
import pytest

from calculators.engine import registry

CALCULATORS = registry.all_calculators()


def corners(calculator):
    """Each parameter at its minimum and at its maximum, the others at their defaults."""
    for p in calculator.params:
        for value in (p.minimum, p.maximum):
            values = {**calculator.defaults, p.name: value}
            if not calculator.rules(values):
                yield p.name, value, values


def assert_sane(result):
    orjson.dumps(result.as_json(), option=orjson.OPT_SERIALIZE_NUMPY)  # what the API sends
    for name, value in result.outputs.items():
        if isinstance(value, float):
            assert math.isfinite(value), name
    text = " ".join([*result.steps, result.conclusion]).lower()
    for bad in ("nan", "inf ", "none", "traceback"):
        assert bad not in text.replace("infinite", "").replace("inference", ""), (bad, text)


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_every_input_at_its_bounds_gives_finite_outputs_and_plain_steps(calculator):
    for name, value, values in corners(calculator):
        try:
            assert_sane(calculator.run(values))
        except AssertionError as error:
            raise AssertionError(f"{calculator.slug} with {name}={value}: {error}") from error


@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_charts_are_figures_plotly_itself_accepts(calculator):
    for values in [calculator.defaults, *(v for _, _, v in corners(calculator))]:
        for chart in calculator.run(values).charts:
            go.Figure(chart)  # raises on any attribute plotly does not know
            assert {trace["type"] for trace in chart["data"]} <= {"scatter", "bar"}  # the basic bundle
            assert chart["layout"]["title"]["text"]
