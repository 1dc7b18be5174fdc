from calculators.engine.rounding import ceil_count, floor_count, tidy


def test_float_noise_does_not_decide_a_whole_count():
    assert 0.1 * 3 / 0.3 > 1  # the noise these helpers exist for
    assert ceil_count(0.1 * 3 / 0.3) == 1
    assert floor_count(25 / (1000 / 40)) == 1
    assert floor_count(0.9999999999999) == 1


def test_real_fractions_still_round_the_usual_way():
    assert ceil_count(7.1) == 8
    assert floor_count(7.9) == 7
    assert ceil_count(0) == 0


def test_tidy_keeps_twelve_significant_figures():
    assert tidy(4.300000000000001) == 4.3
    assert tidy(1 / 3) == 0.333333333333
