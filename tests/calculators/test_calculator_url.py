from calculators.validation import calculator_url


def test_a_calculator_link_lists_values_in_the_calculators_input_order_whatever_order_they_were_stored_in():
    # PostgreSQL's jsonb hands keys back sorted by length, then bytes: the link must not depend on it.
    stored = {"kv_heads": 8, "free_gib": 40, "layers": 40, "head_dim": 128}
    assert calculator_url("kv-capacity", stored) == (
        "/calculators/kv-capacity/?layers=40&kv_heads=8&head_dim=128&free_gib=40"
    )
    assert calculator_url("kv-capacity", dict(reversed(stored.items()))) == calculator_url("kv-capacity", stored)


def test_a_calculator_link_without_values_is_the_bare_page():
    assert calculator_url("roofline", {}) == "/calculators/roofline/"
