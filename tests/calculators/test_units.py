import pytest
from hypothesis import given
from hypothesis import strategies as st

from calculators.engine import units


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (766.07, "766"),
        (47.857, "47.9"),
        (2000, "2,000"),
        (0.28311, "0.283"),
        (14.4, "14.4"),
        (6.25, "6.25"),
        (187.5, "187.5"),
        (295.22, "295"),
        (0, "0"),
        (-3.5, "−3.5"),
        (30e6, "30 million"),
        (1.2345e9, "1.23 billion"),
        (1.234e9, "1.23 billion"),
        (4096, "4,096"),
        (58982, "58,982"),
        (2.533, "2.53"),
        (13.75, "13.8"),
        (2.8e14, "280 trillion"),
        (2.8e15, "2.8 × 10¹⁵"),
        (0.0000771, "0.0000771"),
        (4e-7, "4 × 10⁻⁷"),
        (None, "—"),
        (float("inf"), "∞"),
    ],
)
def test_numbers_are_written_with_about_three_significant_figures(value, text):
    assert units.num(value) == text


def test_scientific_notation_rounds_the_mantissa_before_choosing_the_exponent():
    assert units.sci(2.8e14) == "2.8 × 10¹⁴"
    assert units.sci(9.9999e14) == "1 × 10¹⁵"
    assert units.sci(-1.5e-9) == "−1.5 × 10⁻⁹"


def test_kv_memory_is_binary_and_weights_are_decimal():
    assert units.bytes_binary(163_840) == "160 KiB"
    assert units.bytes_binary(671_088_640) == "640 MiB"
    assert units.bytes_binary(6.25 * 2**30) == "6.25 GiB"
    assert units.bytes_binary(187.5 * 2**20) == "187.5 MiB"
    assert units.bytes_binary(15 * 163_840) == "2.34 MiB"
    assert units.bytes_binary(512) == "512 bytes"
    assert units.bytes_decimal(140e9) == "140 GB"
    assert units.bytes_decimal(70e9) == "70 GB"
    assert units.bandwidth(3.35e12) == "3.35 TB/s"
    assert units.tflops(989e12) == "989 TFLOP/s"
    assert units.si(140e9, "FLOPs") == "140 GFLOPs"


def test_money_shows_cents_and_keeps_sub_cent_amounts_visible():
    assert units.money(25.2) == "$25.20"
    assert units.money(90) == "$90.00"
    assert units.money(1234.5) == "$1,234.50"
    assert units.money(0) == "$0.00"
    assert units.money(0.0000771) == "$0.0000771"
    assert units.money(-6) == "−$6.00"


def test_fractions_are_percentages_that_never_round_to_a_misleading_0_or_100():
    assert units.percent(0.29297) == "29 %"
    assert units.percent(0.8) == "80 %"
    assert units.percent(0.055) == "5.5 %"
    assert units.percent(0.9996) == "99.9 %"
    assert units.percent(0.0004) == "0.04 %"
    assert units.percent(1) == "100 %"
    assert units.percent(0) == "0 %"


def test_durations_pick_a_readable_unit():
    assert units.seconds(0.28311) == "0.283 s"
    assert units.seconds(12.5) == "12.5 s"
    assert units.seconds(0.041791) == "41.8 ms"
    assert units.seconds(0.00032) == "320 µs"
    assert units.seconds(300) == "5 min"
    assert units.seconds(4 * 3600) == "4 h"
    assert units.seconds(0) == "0 s"
    assert units.ms(50) == "50 ms"


def test_rates_and_ratios():
    assert units.rate(3.35e12 / 140e9) == "23.9 tokens/s"
    assert units.times(2.533) == "2.53×"
    assert units.integer(20000) == "20,000"


def test_nouns_follow_their_counts():
    assert units.plural(1, "byte") == "byte"
    assert units.plural(2, "byte") == "bytes"
    assert units.count(1, "reply", "replies") == "1 reply"
    assert units.count(16, "reply", "replies") == "16 replies"
    assert units.count(1_500, "slot") == "1,500 slots"
    assert units.per_second(1, "request") == "1 request/s"
    assert units.per_second(25.53, "request") == "25.5 requests/s"


def test_huge_counts_switch_to_scientific_notation():
    assert units.integer(1.3e49) == "1.3 × 10⁴⁹"
    assert units.count(1.3e49, "replica") == "1.3 × 10⁴⁹ replicas"


def test_subnormal_values_are_written_in_scientific_notation_without_dividing_by_zero():
    assert units.sci(3e-324) == "5 × 10⁻³²⁴"  # the smallest double (4.94e-324), as Python reads "3e-324"
    assert units.num(1e-310) == "1 × 10⁻³¹⁰"


def test_percentages_round_half_up_as_people_do():
    from calculators.engine.units import percent

    assert percent(0.625) == "63 %"
    assert percent(0.285) == "29 %"


def test_a_fractional_count_never_reads_as_one_more_than_fits():
    from calculators.engine.units import fraction_of_count

    assert fraction_of_count(14.4) == "14.4"
    assert fraction_of_count(28.96) == "28.96"
    assert fraction_of_count(183.7) == "183.7"
    assert fraction_of_count(0.999) == "0.999"
    assert fraction_of_count(29.0) == "29"


def _significant_by_definition(x: float, sig: int):
    """The rule written the slow, obvious way: the fewest digits that give x back."""
    from calculators.engine.rounding import tidy

    x = tidy(x)
    if x.is_integer() and x < 1e6:
        return x, max(1, len(str(int(x)).rstrip("0")))
    for digits in range(1, sig + 1):
        if float(f"{x:.{digits}g}") == x:
            return x, digits
    if x >= 100 and float(f"{x:.{sig + 1}g}") == x:
        return x, sig + 1
    return float(f"{x:.{sig}g}"), sig


@given(
    st.one_of(
        st.floats(min_value=5e-324, max_value=1e15, allow_nan=False, allow_infinity=False),
        st.decimals(min_value=0, max_value=100000, places=4).map(float),
    ),
    st.integers(min_value=2, max_value=4),
)
def test_significant_digits_are_read_off_one_formatting_as_the_definition_says(x, sig):
    from calculators.engine.units import _significant

    if x > 0:
        assert _significant(x, sig) == _significant_by_definition(x, sig)
