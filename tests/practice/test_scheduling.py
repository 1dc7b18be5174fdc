"""The scheduling rules, through fsrs itself: no database, fixed clocks."""

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from fsrs import Rating, State

from practice import scheduling

MORNING = datetime(2026, 3, 10, 0, 1, tzinfo=UTC)
EVENING = datetime(2026, 3, 10, 23, 58, tzinfo=UTC)


@pytest.mark.parametrize("at", [MORNING, EVENING], ids=["just after midnight", "just before midnight"])
@pytest.mark.parametrize("retention", [0.7, 0.9, 0.99])
def test_a_good_card_is_not_due_again_today(at, retention):
    card = scheduling.review(scheduling.new_card(at), Rating.Good, at, retention)
    assert card.state == State.Review
    assert card.due.date() > at.date()
    assert card.due - at >= timedelta(days=1)


def test_an_again_card_comes_back_within_the_session():
    card = scheduling.review(scheduling.new_card(MORNING), Rating.Again, MORNING, 0.9)
    assert card.state == State.Learning
    assert card.due - MORNING == timedelta(minutes=10)
    # And Good on the second try graduates it to tomorrow or later.
    later = MORNING + timedelta(minutes=10)
    again = scheduling.review(card, Rating.Good, later, 0.9)
    assert again.state == State.Review and again.due.date() > later.date()


def test_a_forgotten_review_card_relearns_within_minutes():
    card = scheduling.review(scheduling.new_card(MORNING), Rating.Good, MORNING, 0.9)
    lapse_at = card.due + timedelta(hours=3)
    lapsed = scheduling.review(card, Rating.Again, lapse_at, 0.9)
    assert lapsed.state == State.Relearning
    assert lapsed.due - lapse_at == timedelta(minutes=10)
    assert lapsed.stability < card.stability


def test_the_buttons_show_fsrs_intervals_for_a_new_card():
    preview = scheduling.preview(scheduling.new_card(MORNING), MORNING, 0.9)
    assert [(name, key, scheduling.format_interval(gap)) for _, name, key, gap in preview] == [
        ("Again", "1", "10m"),
        ("Hard", "2", "15m"),
        ("Good", "3", "2d"),  # fsrs's initial stability for Good, 2.31 days, at 90 % retention
        ("Easy", "4", "8d"),
    ]


def test_the_buttons_show_what_reviewing_would_schedule():
    card = scheduling.review(scheduling.new_card(MORNING), Rating.Good, MORNING, 0.9)
    at = card.due
    for rating, _, _, gap in scheduling.preview(card, at, 0.9):
        assert scheduling.review(card, rating, at, 0.9, fuzz=False).due - at == gap


def test_a_higher_desired_retention_brings_reviews_sooner():
    card = scheduling.review(scheduling.new_card(MORNING), Rating.Easy, MORNING, 0.9)
    at = card.due
    gaps = {r: scheduling.review(card, Rating.Good, at, r, fuzz=False).due - at for r in (0.7, 0.9, 0.99)}
    assert gaps[0.99] < gaps[0.9] < gaps[0.7]


@pytest.mark.parametrize("retention", [0.69, 0.995, 1.0, 0.0, float("nan")])
def test_the_scheduler_refuses_a_retention_outside_its_bounds(retention):
    with pytest.raises(ValueError, match=r"between 0\.7 and 0\.99"):
        scheduling.scheduler(retention)


def test_fsrs_gets_utc_whatever_zone_the_database_returns():
    paris = datetime(2026, 3, 10, 12, 0, tzinfo=ZoneInfo("Europe/Paris"))
    card = scheduling.review(scheduling.new_card(paris), Rating.Again, paris, 0.9)
    assert card.due == datetime(2026, 3, 10, 11, 10, tzinfo=UTC)


def test_replaying_reviews_in_any_order_equals_reviewing_them_in_time_order():
    times = [MORNING, MORNING + timedelta(minutes=12), MORNING + timedelta(days=3), MORNING + timedelta(days=11)]
    ratings = [Rating.Again, Rating.Good, Rating.Hard, Rating.Good]
    card = scheduling.new_card(MORNING)
    for at, rating in zip(times, ratings, strict=True):
        card = scheduling.review(card, rating, at, 0.9, fuzz=False)
    shuffled = list(zip(times, ratings, strict=True))[::-1]
    replayed = scheduling.replay(shuffled, 0.9, fuzz=False)
    assert (replayed.state, replayed.due, replayed.stability, replayed.difficulty) == (
        card.state,
        card.due,
        card.stability,
        card.difficulty,
    )


def test_retrievability_falls_as_days_pass_and_is_zero_before_any_review():
    assert scheduling.retrievability(scheduling.new_card(MORNING), MORNING) == 0
    card = scheduling.review(scheduling.new_card(MORNING), Rating.Good, MORNING, 0.9)
    same_day = scheduling.retrievability(card, MORNING + timedelta(hours=5))
    at_due = scheduling.retrievability(card, card.due)
    month = scheduling.retrievability(card, MORNING + timedelta(days=30))
    assert same_day == 1.0
    assert 0.89 < at_due < 0.93  # due when recall is expected to have fallen to the desired 90 %
    assert month < 0.7


@pytest.mark.parametrize(
    ("gap", "text"),
    [
        (timedelta(seconds=20), "<1m"),
        (timedelta(minutes=10), "10m"),
        (timedelta(minutes=15), "15m"),
        (timedelta(hours=5), "5h"),
        (timedelta(days=2), "2d"),
        (timedelta(days=45), "1.5mo"),
        (timedelta(days=800), "2.2y"),
    ],
)
def test_intervals_are_written_as_on_anki_buttons(gap, text):
    assert scheduling.format_interval(gap) == text


@pytest.mark.parametrize(
    ("gap", "text"),
    [
        (timedelta(seconds=30), "in under a minute"),
        (timedelta(minutes=9, seconds=40), "in 10 minutes"),
        (timedelta(hours=1), "in 1 hour"),
        (timedelta(hours=20), "in 20 hours"),
        (timedelta(days=2, hours=1), "in 2 days"),
    ],
)
def test_waits_are_said_in_words(gap, text):
    assert scheduling.describe_wait(gap) == text


def test_a_streak_counts_consecutive_days_to_today_or_yesterday():
    today = date(2026, 3, 10)
    days = [date(2026, 3, 7), date(2026, 3, 8), date(2026, 3, 9)]
    assert scheduling.streak(days, today) == 3  # today not practised yet: the streak still stands
    assert scheduling.streak([*days, today], today) == 4
    assert scheduling.streak([date(2026, 3, 8)], today) == 0  # a missed day breaks it
    assert scheduling.streak([], today) == 0


def test_the_forecast_counts_overdue_cards_today_and_drops_those_past_its_end():
    today = date(2026, 3, 10)
    at = datetime(2026, 3, 10, 9, tzinfo=UTC)
    day = timedelta(days=1)
    dues = [at - 3 * day, at, at + day, at + day + timedelta(hours=2), at + 20 * day]
    counts = scheduling.forecast(dues, today, 14)
    assert counts.days[0] == today and len(counts.days) == 14
    assert counts.counts[:3] == [2, 2, 0] and sum(counts.counts) == 4


def test_reviews_per_day_fall_on_their_utc_day():
    first, last = date(2026, 3, 1), date(2026, 3, 3)
    moments = [datetime(2026, 3, 1, 23, 59, tzinfo=UTC), datetime(2026, 3, 2, 0, 30, tzinfo=ZoneInfo("Europe/Paris"))]
    counts = scheduling.per_day(moments, first, last)
    assert counts.counts == [2, 0, 0]  # 00:30 in Paris is 23:30 UTC the day before
