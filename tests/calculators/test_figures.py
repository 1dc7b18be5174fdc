import math

from calculators.engine import figures as fig


def test_chart_data_is_rounded_to_four_figures_and_non_finite_values_become_gaps():
    assert fig.rounded([1 / 3, 2.0, math.inf, math.nan, 123456.7]) == [0.3333, 2.0, None, None, 123500.0]


def test_a_vertical_line_label_on_a_log_axis_is_placed_by_its_log():
    shape, note = fig.vline(148.0, "crossover", log=True)
    assert shape["x0"] == shape["x1"] == 148.0
    assert note["x"] == math.log10(148.0)
    assert fig.vline(148.0, "crossover")[1]["x"] == 148.0


def test_horizontal_bars_put_the_labels_on_the_y_axis():
    trace = fig.bars(["network", "model"], [5, 15.0], "time", orientation="h")
    fig.round_traces([trace])
    assert trace["y"] == ["network", "model"]
    assert trace["x"] == [5.0, 15.0]
    assert trace["orientation"] == "h"


def test_a_log_axis_range_is_given_in_decades():
    assert fig.axis("x", log=True, range_=[1, 1000])["range"] == [0, 3]


def test_vectorised_rounding_matches_rounding_each_value_through_its_decimal_text():
    import math

    from hypothesis import given, settings
    from hypothesis import strategies as st

    from calculators.engine.figures import rounded

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.floats(allow_nan=True, allow_infinity=True), max_size=50))
    def check(values):
        expected = [float(f"{v:.4g}") if math.isfinite(v) else None for v in values]
        assert rounded(values) == expected

    check()
    assert rounded([14.4, 28.8, 4096, 2 / 3, 5e-324, float("nan")]) == [14.4, 28.8, 4096.0, 0.6667, 5e-324, None]


def test_a_figure_rounds_every_trace_at_once_and_a_shared_grid_once():
    grid = [1 / 3, 2 / 3, 1.0]
    a = fig.line(grid, [1 / 7, 2 / 7, 3 / 7], "a")
    b = fig.line(grid, [14.4, 28.8, math.inf], "b")
    c = fig.points([2 / 3], [5.0], "here")
    figure = fig.figure("t", [a, b, c], fig.axis("x"), fig.axis("y"))
    assert [t["x"] for t in figure["data"]] == [[0.3333, 0.6667, 1.0], [0.3333, 0.6667, 1.0], [0.6667]]
    assert [t["y"] for t in figure["data"]] == [[0.1429, 0.2857, 0.4286], [14.4, 28.8, None], [5.0]]
