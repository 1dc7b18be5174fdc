"""Plotly figures built as plain dicts.

``plotly.graph_objects`` validates every attribute and costs milliseconds a
figure; a dict costs microseconds and serialises with orjson. The browser
draws these with ``Plotly.react`` (static/js/calculator.js).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

# Okabe–Ito: distinguishable with the common colour-vision deficiencies.
BLUE = "#0072B2"
ORANGE = "#E69F00"
GREEN = "#009E73"
VERMILION = "#D55E00"
PURPLE = "#CC79A7"
SKY = "#56B4E9"
YELLOW = "#F0E442"
GREY = "#6b7280"
INK = "#111827"


SMALL = 40  # below this many points numpy's per-call overhead costs more than it saves


def rounded(values: Iterable[float], sig: int = 4) -> list[float | None]:
    """Chart data to four significant figures: plenty for a plot, fewer bytes; null where not finite.

    Vectorised (a slider update rounds a few hundred points): scale by a power of
    ten, round, scale back, dividing or multiplying by the exact power so that
    14.4 comes out as 14.4. Powers of ten are exact only up to 10²², so values
    needing a larger scale (below about 1e-19 or above 1e25) take the per-value path.
    """
    array = np.asarray(values, dtype=float).ravel()
    if array.size <= SMALL:
        # Formatting each value is the definition of the rounding, and faster than numpy for a few points.
        fmt = f".{sig}g"
        return [float(format(v, fmt)) if math.isfinite(v) else None for v in array.tolist()]
    finite = np.isfinite(array)
    with np.errstate(all="ignore"):
        magnitude = np.where(finite & (array != 0), np.abs(array), 1.0)
        digits = sig - 1 - np.floor(np.log10(magnitude))
        up = 10.0 ** np.clip(digits, 0, None)
        down = 10.0 ** np.clip(-digits, 0, None)
        result = np.round(array * up / down) * down / up
        result[np.abs(digits) > 22] = np.nan
    out: list[float | None] = result.tolist()
    for i in np.flatnonzero(~np.isfinite(result)).tolist():
        v = float(array[i])
        out[i] = float(f"{v:.{sig}g}") if math.isfinite(v) else None
    return out


class Unrounded:
    """Chart data held back until ``figure()`` rounds every trace of the figure in one numpy pass.

    Rounding costs about 30 µs a call whatever the length, and a chart has a
    dozen arrays (the same x grid often several times): one call per figure
    instead of one per array is most of a slider update's chart time.
    """

    __slots__ = ("values",)

    def __init__(self, values):
        self.values = values


def round_traces(traces: list[dict]) -> None:
    """Replace every Unrounded x/y in the traces by its rounded list, all at once."""
    pending = [(trace, key) for trace in traces for key in ("x", "y") if isinstance(trace.get(key), Unrounded)]
    if not pending:
        return
    arrays: dict[int, np.ndarray] = {}
    for trace, key in pending:
        values = trace[key].values
        if id(values) not in arrays:  # the same grid passed to several traces is rounded once
            arrays[id(values)] = np.asarray(values, dtype=float).ravel()
    flat = rounded(np.concatenate(list(arrays.values())))
    lists: dict[int, list[float | None]] = {}
    start = 0
    for key, array in arrays.items():
        lists[key] = flat[start : start + array.size]
        start += array.size
    for trace, key in pending:
        trace[key] = lists[id(trace[key].values)]


def axis(title: str, log: bool = False, range_: Sequence[float] | None = None, **extra) -> dict:
    ax = {"title": {"text": title}, "type": "log" if log else "linear", "zeroline": False, "automargin": True}
    if range_ is not None:
        lo, hi = range_
        ax["range"] = [math.log10(lo), math.log10(hi)] if log else [lo, hi]
    ax.update(extra)
    return ax


def line(
    x,
    y,
    name: str,
    color: str = BLUE,
    dash: str | None = None,
    hover: str | None = None,
    yaxis: str | None = None,
    fill: str | None = None,
    width: float = 2.5,
) -> dict:
    trace = {
        "type": "scatter",
        "mode": "lines",
        "name": name,
        "x": Unrounded(x),
        "y": Unrounded(y),
        "line": {"color": color, "width": width, **({"dash": dash} if dash else {})},
    }
    if hover:
        trace["hovertemplate"] = hover + "<extra>" + name + "</extra>"
    if yaxis:
        trace["yaxis"] = yaxis
    if fill:
        trace["fill"] = fill
    return trace


def points(
    x,
    y,
    name: str,
    color: str = INK,
    symbol: str = "circle",
    size: int = 11,
    text: Sequence[str] | None = None,
    hover: str | None = None,
    yaxis: str | None = None,
) -> dict:
    trace = {
        "type": "scatter",
        "mode": "markers+text" if text else "markers",
        "name": name,
        "x": Unrounded(x),
        "y": Unrounded(y),
        "marker": {"color": color, "symbol": symbol, "size": size, "line": {"color": "#fff", "width": 1}},
    }
    if text:
        trace["text"] = list(text)
        trace["textposition"] = "top center"
    if hover:
        trace["hovertemplate"] = hover + "<extra>" + name + "</extra>"
    if yaxis:
        trace["yaxis"] = yaxis
    return trace


def bars(
    categories: Sequence,
    values,
    name: str,
    color: str = BLUE,
    hover: str | None = None,
    orientation: str = "v",
    text: Sequence[str] | None = None,
) -> dict:
    """Bars with category labels on one axis and values on the other."""
    labels, numbers = list(categories), Unrounded(values)
    trace = {
        "type": "bar",
        "name": name,
        "x": labels if orientation == "v" else numbers,
        "y": numbers if orientation == "v" else labels,
        "orientation": orientation,
        "marker": {"color": color},
    }
    if hover:
        trace["hovertemplate"] = hover + "<extra>" + name + "</extra>"
    if text:
        trace["text"] = list(text)
        trace["textposition"] = "inside"
    return trace


def vline(x: float, label: str, color: str = GREY, yref: str = "paper", log: bool = False) -> tuple[dict, dict]:
    """A vertical marker line with a label at its top.

    On a log x axis plotly places shapes by value but annotations by log10 of
    the value: pass ``log=True`` there.
    """
    shape = {
        "type": "line",
        "xref": "x",
        "yref": yref,
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "line": {"color": color, "width": 1.5, "dash": "dot"},
    }
    note = {
        "x": math.log10(x) if log else x,
        "xref": "x",
        "y": 1,
        "yref": "paper",
        "text": label,
        "showarrow": False,
        "yanchor": "bottom",
        "font": {"size": 12, "color": color},
    }
    return shape, note


def hline(y: float, label: str, color: str = GREY) -> tuple[dict, dict]:
    shape = {
        "type": "line",
        "xref": "paper",
        "yref": "y",
        "x0": 0,
        "x1": 1,
        "y0": y,
        "y1": y,
        "line": {"color": color, "width": 1.5, "dash": "dot"},
    }
    note = {
        "x": 1,
        "xref": "paper",
        "y": y,
        "yref": "y",
        "text": label,
        "showarrow": False,
        "xanchor": "right",
        "yanchor": "bottom",
        "font": {"size": 12, "color": color},
    }
    return shape, note


def figure(
    title: str,
    traces: list[dict],
    xaxis: dict,
    yaxis: dict,
    *,
    shapes: Sequence[dict] = (),
    annotations: Sequence[dict] = (),
    yaxis2: dict | None = None,
    barmode: str | None = None,
    legend_below: bool = True,
) -> dict:
    layout = {
        "title": {"text": title, "x": 0, "xanchor": "left", "font": {"size": 16}},
        "xaxis": xaxis,
        "yaxis": yaxis,
        "margin": {"l": 64, "r": 24 if yaxis2 is None else 64, "t": 56, "b": 56},
        "height": 380,
        "font": {"family": "system-ui, sans-serif", "size": 13, "color": INK},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "#ffffff",
        "hovermode": "closest",
        "shapes": list(shapes),
        "annotations": list(annotations),
    }
    if legend_below:
        layout["legend"] = {"orientation": "h", "x": 0, "y": -0.3, "yanchor": "top"}
        layout["margin"]["b"] = 110
        layout["height"] = 420
    if yaxis2 is not None:
        layout["yaxis2"] = {**yaxis2, "overlaying": "y", "side": "right"}
    if barmode:
        layout["barmode"] = barmode
    round_traces(traces)
    return {"data": traces, "layout": layout}


def log_span(lo: float, hi: float, n: int = 64) -> np.ndarray:
    """n points evenly spaced on a log axis from lo to hi."""
    return np.geomspace(lo, hi, n)
