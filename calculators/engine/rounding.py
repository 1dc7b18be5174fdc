"""Whole counts from float arithmetic, without float noise deciding them.

0.1 × 3 is 0.30000000000000004, and 25 / (1000 / 40) can land a hair under 1:
a plain ceil() or floor() would then count one replica or batch too many or
too few. Twelve significant figures are far more than any input carries.
"""

from __future__ import annotations

import math


def tidy(x: float) -> float:
    """x without float noise: 4.300000000000001 → 4.3."""
    return float(f"{x:.12g}")


def floor_count(x: float) -> int:
    return math.floor(tidy(x))


def ceil_count(x: float) -> int:
    return math.ceil(tidy(x))
