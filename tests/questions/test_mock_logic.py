"""The mock interview's rules on plain data: drawing, the clock, scoring, the summary and weak topics."""

import re

import pytest

from questions import mock
from questions.mock import Drawable, MockError, NoSuchQuestion

POOL = [Drawable(slug=f"q{i:02d}", title=f"Question {i}", points=4, terms=(f"t{i % 3}",)) for i in range(12)]


def interview(points=(5, 4, 3), terms=(("kv-cache", "decode"), ("kv-cache",), ("roofline",)), minutes=2):
    pairs = enumerate(zip(points, terms, strict=True))
    drawn = [Drawable(slug=f"s{i}", title=f"Q{i}", points=p, terms=t) for i, (p, t) in pairs]
    return mock.start(drawn, minutes=minutes, seed=1)


def test_a_draw_has_the_count_asked_for_and_no_question_twice():
    for seed in range(50):
        drawn = mock.draw(POOL, 7, seed)
        assert len(drawn) == 7 and len({q.slug for q in drawn}) == 7
        assert set(drawn) <= set(POOL)


def test_the_same_seed_and_pool_give_the_same_draw_whatever_order_the_pool_comes_in():
    assert mock.draw(POOL, 5, seed=42) == mock.draw(list(reversed(POOL)), 5, seed=42)
    draws = {tuple(q.slug for q in mock.draw(POOL, 5, seed)) for seed in range(30)}
    assert len(draws) > 20  # different seeds shuffle


def test_drawing_the_whole_pool_is_a_permutation_of_it():
    assert sorted(q.slug for q in mock.draw(POOL, 12, seed=3)) == [q.slug for q in POOL]


@pytest.mark.parametrize("count", [0, 13, -1])
def test_a_draw_larger_than_the_pool_or_empty_is_refused(count):
    with pytest.raises(MockError, match=rf"Cannot draw {count} questions? from 12\."):
        mock.draw(POOL, count, seed=1)


def test_start_copies_what_the_summary_needs_and_sets_the_limit_in_seconds():
    state = interview(minutes=3)
    assert state["limit"] == 180 and state["ended"] is False and mock.is_valid(state)
    assert state["steps"][0] == {"slug": "s0", "title": "Q0", "points": 5, "terms": ["kv-cache", "decode"],
                                 "opened": None, "stopped": None, "covered": None, "notes": ""}  # fmt: skip


@pytest.mark.parametrize("minutes", [0, 31])
def test_a_time_limit_out_of_bounds_is_refused(minutes):
    with pytest.raises(MockError, match=re.escape("between 1 and 30 minutes")):
        mock.start(POOL[:2], minutes=minutes, seed=1)


@pytest.mark.parametrize("value", [None, {}, {"version": 1, "steps": [], "limit": 60}, {"version": 0, "steps": [{}]},
                                   "text", {"version": 1, "steps": [{}], "limit": "60"}])  # fmt: skip
def test_a_session_value_that_is_not_a_mock_interview_is_not_read_as_one(value):
    assert not mock.is_valid(value)


def test_questions_open_one_at_a_time_in_order():
    state = interview()
    assert mock.current(state) == 1
    with pytest.raises(MockError, match=re.escape("Question 2 is not open yet: finish question 1 first.")):
        mock.step_at(state, 2)
    with pytest.raises(NoSuchQuestion, match=re.escape("This mock interview has 3 questions: there is no question 4.")):
        mock.step_at(state, 4)
    with pytest.raises(NoSuchQuestion, match=re.escape("there is no question 0.")):
        mock.step_at(state, 0)
    mock.score(state, 1, ["0"], "", now=10)
    assert mock.current(state) == 2
    assert mock.step_at(state, 1)["covered"] == [0]  # a scored question can be looked at again


def test_the_clock_starts_on_first_opening_and_a_reload_does_not_restart_it():
    state = interview()
    mock.open_step(state, 1, now=1000)
    mock.open_step(state, 1, now=1090)
    step = state["steps"][0]
    assert step["opened"] == 1000
    assert mock.remaining(state, step, now=1090) == 30
    assert mock.remaining(state, step, now=1150) == -30
    mock.stop_clock(state, 1, now=1100)
    mock.stop_clock(state, 1, now=1500)  # a second stop changes nothing
    assert step["stopped"] == 1100 and mock.seconds_taken(step) == 100
    assert mock.remaining(state, step, now=9999) == 20


def test_scoring_records_the_points_ticked_once_each_and_the_notes():
    state = interview()
    mock.open_step(state, 1, now=0)
    mock.score(state, 1, ["3", "0", "3", 1], "  forgot the factor of 2 \n", now=200)
    step = state["steps"][0]
    assert step["covered"] == [0, 1, 3]
    assert step["notes"] == "forgot the factor of 2"
    assert step["stopped"] == 200  # scoring without stopping first stops the clock


@pytest.mark.parametrize(
    ("covered", "message"),
    [
        (["5"], "Question 1 has 5 points to tick: there is no point 6."),
        (["-1"], "Question 1 has 5 points to tick: there is no point 0."),
        (["two"], "“two” is not one of the points to tick."),
        (["1.5"], "“1.5” is not one of the points to tick."),
        ([None], "“None” is not one of the points to tick."),
    ],
)
def test_a_tampered_tick_is_refused_and_nothing_is_recorded(covered, message):
    state = interview()
    with pytest.raises(MockError, match=re.escape(message)):
        mock.score(state, 1, covered, "", now=5)
    assert state["steps"][0]["covered"] is None and state["steps"][0]["stopped"] is None


def test_overlong_notes_are_refused():
    state = interview()
    with pytest.raises(MockError, match=re.escape("Keep the notes under 2,000 characters (these are 2,001).")):
        mock.score(state, 1, [], "x" * 2001, now=5)


def test_a_question_cannot_be_scored_twice():
    state = interview()
    mock.score(state, 1, ["0"], "", now=5)
    with pytest.raises(MockError, match=re.escape("Question 1 is already scored.")):
        mock.score(state, 1, ["0", "1"], "", now=6)
    with pytest.raises(MockError, match=re.escape("Question 1 is already scored.")):
        mock.stop_clock(state, 1, now=6)


def play(state, answers):
    """answers: (covered indices, seconds taken) per question, in order."""
    clock = 0.0
    for number, (covered, seconds) in enumerate(answers, start=1):
        mock.open_step(state, number, now=clock)
        clock += seconds
        mock.score(state, number, covered, "", now=clock)


def test_the_summary_adds_up_points_and_flags_questions_over_time():
    state = interview(minutes=2)
    play(state, [([0, 1, 2, 3, 4], 95), ([0], 150), ([0, 2], 120)])
    summary = mock.summarise(state)
    assert [(r.covered, r.points, r.seconds, r.overtime) for r in summary.results] == [
        (5, 5, 95, False), (1, 4, 150, True), (2, 3, 120, False)
    ]  # fmt: skip
    assert (summary.covered, summary.points, summary.answered, summary.skipped, summary.pending) == (8, 12, 3, 0, 0)
    assert summary.fraction == pytest.approx(8 / 12)
    assert summary.overtime == 1
    assert summary.results[1].over_by == 30


def test_weak_topics_are_the_questions_under_70_percent_weakest_first_with_their_terms():
    state = interview(minutes=2)
    play(state, [([0, 1, 2, 3, 4], 95), ([0], 150), ([0, 2], 120)])
    summary = mock.summarise(state)
    # Q1 at 1/4 = 25 %, Q2 at 2/3 = 67 %; Q0 at 100 % is not weak.
    assert [(r.slug, round(r.fraction, 2)) for r in summary.weak] == [("s1", 0.25), ("s2", 0.67)]
    assert summary.weak[0].missed == (1, 2, 3)
    # kv-cache sits behind Q1's three missed points, roofline behind Q2's one.
    assert [(t.slug, t.missed, t.questions) for t in summary.weak_terms] == [
        ("kv-cache", 3, ("s1",)), ("roofline", 1, ("s2",))
    ]  # fmt: skip


def test_at_equal_scores_the_question_most_over_time_is_weaker():
    state = interview(points=(4, 4, 4), terms=((), (), ()), minutes=1)
    play(state, [([0], 50), ([1], 200), ([2], 70)])
    assert [r.slug for r in mock.summarise(state).weak] == ["s1", "s2", "s0"]


def test_terms_shared_by_weak_questions_add_up_their_missed_points():
    state = interview(points=(4, 4, 4), terms=(("a", "b"), ("b",), ("c",)), minutes=5)
    play(state, [([], 10), ([0, 1], 10), ([0, 1, 2, 3], 10)])
    weak_terms = mock.summarise(state).weak_terms
    assert [(t.slug, t.missed, t.questions) for t in weak_terms] == [("b", 6, ("s0", "s1")), ("a", 4, ("s0",))]


def test_a_perfect_interview_has_no_weak_topics():
    state = interview()
    play(state, [([0, 1, 2, 3, 4], 10), ([0, 1, 2, 3], 10), ([0, 1, 2], 10)])
    summary = mock.summarise(state)
    assert summary.weak == [] and summary.weak_terms == [] and summary.fraction == 1.0


def test_ending_early_counts_the_rest_as_skipped_and_weak():
    state = interview()
    play(state, [([0, 1, 2, 3, 4], 30)])
    mock.end(state)
    summary = mock.summarise(state)
    assert mock.finished(state) and mock.current(state) is None
    assert (summary.covered, summary.points, summary.answered, summary.skipped) == (5, 12, 1, 2)
    assert [r.slug for r in summary.weak] == ["s1", "s2"]
    assert summary.results[1].seconds is None and not summary.results[1].overtime
    with pytest.raises(MockError, match=re.escape("The interview ended before question 2")):
        mock.step_at(state, 2)


def test_a_summary_midway_counts_only_the_scored_questions():
    state = interview()
    play(state, [([0], 30)])
    summary = mock.summarise(state)
    assert (summary.covered, summary.points, summary.answered, summary.pending, summary.skipped) == (1, 5, 1, 2, 0)
    assert [r.slug for r in summary.weak] == ["s0"]


@pytest.mark.parametrize(("seconds", "text"), [(None, "–"), (0, "0:00"), (59.6, "1:00"), (95, "1:35"),
                                               (3600 + 61, "1:01:01"), (-5, "0:00")])  # fmt: skip
def test_times_read_as_minutes_and_seconds(seconds, text):
    assert mock.clock(seconds) == text
