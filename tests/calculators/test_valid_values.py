"""The fast path for valid input agrees with the bound form on every input, valid or not."""

from hypothesis import given, settings
from hypothesis import strategies as st

from calculators.engine import registry
from calculators.forms import bind, valid_values

CALCULATORS = registry.all_calculators()
RAW = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**20), max_value=10**20).map(str),
    st.sampled_from(["", " ", "1e400", "0.5", "1_000", "٣", "nan", "-0", "1e-400", "16", "4096"]),
    st.text(max_size=8),
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CALCULATORS), st.data())
def test_valid_values_returns_exactly_what_a_valid_form_cleans_and_none_otherwise(calculator, data):
    names = [p.name for p in calculator.params]
    query = data.draw(st.dictionaries(st.sampled_from(names), RAW, max_size=len(names)))
    form = bind(calculator, query)
    expected = form.cleaned_data if form.is_valid() else None
    assert valid_values(calculator, query) == expected
