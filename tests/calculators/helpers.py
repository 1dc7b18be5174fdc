"""Small helpers shared by the calculator tests."""

from calculators.engine import registry


def run(slug: str, **overrides):
    """Run a calculator at its defaults with some inputs changed."""
    calculator = registry.get(slug)
    return calculator.run({**calculator.defaults, **overrides})


def text(result) -> str:
    """The whole worked answer as one string, for asserting the figures it shows."""
    return "\n".join([*result.steps, result.conclusion])
