"""Numbers written the way a person writes them in a worked answer.

About three significant figures, thousands separators, binary units for KV
memory (160 KiB, 640 MiB), decimal units for weights and bandwidth (140 GB,
3.35 TB/s), money as $25.20 and fractions as 29 %. Whole counts are written in
full, and 187.5 MiB stays 187.5: rounding those would only hide a number the
reader can check.
"""

from __future__ import annotations

import math

from .rounding import floor_count, tidy

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")
_WORDS = ((1e12, "trillion"), (1e9, "billion"), (1e6, "million"))
_SI = ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
_BINARY = ((2**50, "PiB"), (2**40, "TiB"), (2**30, "GiB"), (2**20, "MiB"), (2**10, "KiB"))
_DECIMAL_BYTES = ((1e15, "PB"), (1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB"))


def _significant(x: float, sig: int) -> tuple[float, int]:
    """Round x for display, returning the value and its significant digits.

    Float noise is trimmed first, so 4.300000000000001 counts as the 4.3 it is.
    Whole numbers below a million are written in full (4,096 tokens, not
    4,100); a value of 100 or more that is exact in four figures stays exact
    (187.5 MiB, not 188); everything else gets ``sig`` figures (2.53, 23.9).
    """
    x = tidy(x)
    if x.is_integer() and x < 1e6:
        return x, max(1, len(str(int(x)).rstrip("0")))
    if x < 1e-300:  # subnormal doubles carry fewer digits than they print: find the fewest that give x back
        digits = next((d for d in range(1, sig + 2) if float(f"{x:.{d}g}") == x), sig + 2)
    else:  # the significant digits x really has (at most 12 after tidying), read off one formatting
        digits = max(1, len(f"{x:.11e}".partition("e")[0].replace(".", "").rstrip("0")))
    if digits <= sig:
        return x, digits
    if x >= 100 and digits == sig + 1:
        return x, sig + 1
    return float(f"{x:.{sig}g}"), sig


def num(x: float | None, sig: int = 3) -> str:
    """A plain number: 2,000 · 47.9 · 0.283 · 30 million · 2.8 × 10¹⁴."""
    if x is None:
        return "—"
    if isinstance(x, float) and not math.isfinite(x):
        return "∞" if x > 0 else ("−∞" if x < 0 else "—")
    if x == 0:
        return "0"
    sign = "−" if x < 0 else ""
    x = abs(float(x))
    if x >= 1e15 or x < 1e-6:
        return sign + sci(x, sig)
    for size, word in _WORDS:
        if x >= size:
            return f"{sign}{num(x / size, sig)} {word}"
    value, digits = _significant(x, sig)
    decimals = max(0, digits - 1 - math.floor(math.log10(value)))
    return f"{sign}{value:,.{decimals}f}"


def fraction_of_count(x: float | None, sig: int = 3) -> str:
    """A fractional count that never reads as one more whole item than fits: 28.96 users, not 29.0."""
    if x is None or not math.isfinite(x) or x < 0 or x >= 1e6:
        return num(x, sig)
    whole = floor_count(x)
    for digits in range(sig, sig + 6):
        text = num(x, digits)
        if math.floor(float(text.replace(",", ""))) == whole:
            return text
    return f"{whole:,}+"


def sci(x: float, sig: int = 3) -> str:
    """Scientific notation as printed in a textbook: 2.8 × 10¹⁴."""
    if x == 0:
        return "0"
    sign = "−" if x < 0 else ""
    value, _ = _significant(abs(x), sig)
    value, digits = _significant(value, sig)  # 9.9999e14 rounds to 1e15: one digit, not "1.00"
    # Let the formatter split mantissa and exponent: value / 10**exponent underflows
    # to a division by zero for subnormal values such as 3e-324.
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{sign}{mantissa} × 10{str(int(exponent)).translate(_SUPERSCRIPT)}"


def integer(x: float | int) -> str:
    """A count written in full: 20,000 · 1,500 (past 10¹⁵, in scientific notation)."""
    if abs(x) >= 1e15:
        return num(x)
    return f"{round(x):,}"


def plural(n: float, word: str, words: str | None = None) -> str:
    """The word for n of something: 1 byte, 2 bytes; 1 reply, 16 replies."""
    return word if n == 1 else (words or word + "s")


def count(n: float, word: str, words: str | None = None) -> str:
    """A whole count with its noun: 1 slot, 8 slots, 16 replies."""
    return f"{integer(n)} {plural(n, word, words)}"


def per_second(x: float, word: str) -> str:
    """A rate of things: 1 request/s, 25.5 requests/s."""
    return f"{num(x)} {plural(x, word)}/s"


def _scaled(x: float, scales, unit_for_small: str, sig: int = 3) -> str:
    for size, unit in scales:
        if abs(x) >= size:
            return f"{num(x / size, sig)} {unit}"
    return f"{num(x, sig)} {unit_for_small}"


def si(x: float | None, unit: str, sig: int = 3) -> str:
    """A decimal-prefixed quantity: 140 GFLOPs, 280 TFLOPs."""
    if x is None:
        return "—"
    for size, prefix in _SI:
        if abs(x) >= size:
            return f"{num(x / size, sig)} {prefix}{unit}"
    return f"{num(x, sig)} {unit}"


def bytes_binary(x: float | None) -> str:
    """KV-cache and free memory: 160 KiB, 640 MiB, 6.25 GiB."""
    if x is None:
        return "—"
    return _scaled(x, _BINARY, "bytes")


def bytes_decimal(x: float | None) -> str:
    """Weights and transfers: 140 GB, 70 GB."""
    if x is None:
        return "—"
    return _scaled(x, _DECIMAL_BYTES, "bytes")


def bandwidth(bytes_per_s: float) -> str:
    """3.35 TB/s."""
    return _scaled(bytes_per_s, tuple((s, u + "/s") for s, u in _DECIMAL_BYTES), "bytes/s")


def tflops(flops_per_s: float) -> str:
    """Throughput in TFLOP/s, the unit datasheets use: 989 TFLOP/s."""
    return f"{num(flops_per_s / 1e12)} TFLOP/s"


def money(x: float | None) -> str:
    """$25.20 · $1,234.50 · $0.0000771 (cents hide sub-cent amounts)."""
    if x is None:
        return "—"
    sign = "−" if x < 0 else ""
    x = abs(x)
    if x == 0 or x >= 0.01:
        return f"{sign}${x:,.2f}"
    return f"{sign}${num(x)}"


def percent(fraction: float | None) -> str:
    """A fraction as a percentage: 29 %, 80 %, 5.5 %, 99.9 %."""
    if fraction is None:
        return "—"
    p = tidy(fraction * 100)
    if p != 0 and (abs(p) < 10 or (round(p) in (0, 100) and p not in (0, 100))):
        text = num(p, 2) if abs(p) < 10 else f"{p:.1f}"
        if round(p) == 100 and p != 100:
            text = f"{math.floor(p * 10) / 10:.1f}"
        return f"{text} %"
    return f"{math.floor(p + 0.5)} %"  # half up: 0.625 is 63 %, as people round


def seconds(x: float | None) -> str:
    """A duration: 12.5 s, 0.283 s, 41.7 ms, 320 µs, 2.5 min, 3.2 h."""
    if x is None:
        return "—"
    if x == 0:
        return "0 s"
    if x >= 3 * 3600:
        return f"{num(x / 3600)} h"
    if x >= 180:
        return f"{num(x / 60)} min"
    if x >= 0.1:
        return f"{num(x)} s"
    if x >= 1e-3:
        return f"{num(x * 1e3)} ms"
    return f"{num(x * 1e6)} µs"


def ms(x: float | None) -> str:
    """Milliseconds as given: 50 ms, 2.5 ms."""
    if x is None:
        return "—"
    return f"{num(x)} ms"


def rate(x: float | None, unit: str = "tokens/s") -> str:
    """23.9 tokens/s · 766 tokens/s."""
    if x is None:
        return "—"
    return f"{num(x)} {unit}"


def times(x: float | None) -> str:
    """A ratio: 2.53×, 300×."""
    if x is None:
        return "—"
    return f"{num(x)}×"
