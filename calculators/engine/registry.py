"""Every calculator, found by looking in ``calculators.engine.specs``.

A spec module defines ``CALCULATOR``; dropping a new module in that package
is all it takes for the form, page, fragment and API to pick it up.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from . import specs
from .spec import Calculator


@cache
def all_calculators() -> tuple[Calculator, ...]:
    found = []
    for info in pkgutil.iter_modules(specs.__path__):
        module = importlib.import_module(f"{specs.__name__}.{info.name}")
        found.append(module.CALCULATOR)
    slugs = [c.slug for c in found]
    if len(slugs) != len(set(slugs)):
        raise RuntimeError(f"two calculators share a slug: {sorted(slugs)}")
    return tuple(sorted(found, key=lambda c: (c.order, c.slug)))


def get(slug: str) -> Calculator | None:
    return _by_slug().get(slug)


@cache
def _by_slug() -> dict[str, Calculator]:
    return {c.slug: c for c in all_calculators()}
