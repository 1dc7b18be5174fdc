"""Spaced repetition through ``fsrs``: review a card, preview the next intervals, replay logs, count streaks.

No Django here: cards travel as ``fsrs.Card`` and plain values, so the rules can be
tested on their own and the views stay thin.

Days are UTC days (the site's ``TIME_ZONE`` is UTC): the daily new-question limit,
the streak and the charts all count from 00:00 UTC.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from fsrs import Card, Rating, Scheduler, State

from calculators.engine.units import count

DEFAULT_RETENTION = 0.9
MIN_RETENTION = 0.70
MAX_RETENTION = 0.99

# One learning step of ten minutes, one relearning step of ten minutes.
#
# - "Good" on a new card graduates it at once: with a single step, fsrs moves the
#   card to Review, whose interval is at least one whole day, so a question the
#   candidate answered well is not asked again the same day. (fsrs's default
#   steps, 1 and 10 minutes, would bring it back ten minutes later.)
# - "Again" (and "Hard", at 1.5 steps) brings the card back in minutes, within the
#   same sitting: ten minutes leaves room for other questions in between, so the
#   second try tests recall rather than the last screen; when nothing else is due
#   the queue shows it early (LEARN_AHEAD), as Anki does.
# - A lapse in Review relearns over the same ten minutes.
LEARNING_STEPS = (timedelta(minutes=10),)
RELEARNING_STEPS = (timedelta(minutes=10),)
# A learning card due within this long is shown early when nothing else is left (Anki's "learn ahead limit").
LEARN_AHEAD = timedelta(minutes=20)

RATINGS = (
    (Rating.Again, "Again", "1"),
    (Rating.Hard, "Hard", "2"),
    (Rating.Good, "Good", "3"),
    (Rating.Easy, "Easy", "4"),
)
RATING_NAMES = {int(rating): name for rating, name, _ in RATINGS}
STATE_NAMES = {State.Learning: "learning", State.Review: "review", State.Relearning: "relearning"}


def scheduler(desired_retention: float = DEFAULT_RETENTION, fuzz: bool = True) -> Scheduler:
    """The site's scheduler at a desired retention. Fuzz spreads review days so cards learned together part."""
    if not MIN_RETENTION <= desired_retention <= MAX_RETENTION:
        raise ValueError(f"desired retention must be between {MIN_RETENTION} and {MAX_RETENTION}")
    return Scheduler(
        desired_retention=desired_retention,
        learning_steps=LEARNING_STEPS,
        relearning_steps=RELEARNING_STEPS,
        enable_fuzzing=fuzz,
    )


def utc(moment: datetime) -> datetime:
    """fsrs accepts only datetime.timezone.utc, not an equal zoneinfo: normalise whatever the database returned."""
    if moment.tzinfo is None:
        raise ValueError("naive datetime")
    return moment.astimezone(UTC)


def new_card(now: datetime) -> Card:
    return Card(card_id=0, due=utc(now))


def review(card: Card, rating: int, now: datetime, retention: float, fuzz: bool = True) -> Card:
    """The card after a rating at ``now``."""
    reviewed, _ = scheduler(retention, fuzz).review_card(card, Rating(rating), review_datetime=utc(now))
    return reviewed


def preview(card: Card, now: datetime, retention: float) -> list[tuple[int, str, str, timedelta]]:
    """(rating, name, key, interval) for each button: when the card would be due after that rating.

    Computed by fsrs without fuzz, as Anki labels its buttons; the review itself is fuzzed
    by a few percent for intervals of 3 days and more.
    """
    plain = scheduler(retention, fuzz=False)
    out = []
    for rating, name, key in RATINGS:
        after, _ = plain.review_card(card, rating, review_datetime=utc(now))
        out.append((int(rating), name, key, after.due - utc(now)))
    return out


def replay(reviews: Iterable[tuple[datetime, int]], retention: float, fuzz: bool = True) -> Card:
    """A card rebuilt from its (time, rating) reviews, taken in time order, from a new card.

    Used when progress from two places meets (a browser merged into an account): the
    memory state fsrs derives from every review, whichever device it was made on.
    """
    ordered = sorted(reviews, key=lambda item: item[0])
    if not ordered:
        raise ValueError("no reviews to replay")
    card = new_card(ordered[0][0])
    for moment, rating in ordered:
        card = review(card, rating, moment, retention, fuzz)
    return card


def retrievability(card: Card, now: datetime, retention: float = DEFAULT_RETENTION) -> float:
    """fsrs's estimated probability of recalling the card at ``now`` (0 for a card never reviewed)."""
    return float(scheduler(retention, fuzz=False).get_card_retrievability(card, utc(now)))


def format_interval(interval: timedelta) -> str:
    """Short, like Anki's buttons: 10m, 15m, 2h, 3d, 1.5mo, 2.1y."""
    seconds = max(0.0, interval.total_seconds())
    minutes = seconds / 60
    if minutes < 1:
        return "<1m"
    if minutes < 60:
        return f"{round(minutes)}m"
    hours = minutes / 60
    if hours < 24:
        return f"{round(hours)}h"
    days = hours / 24
    if days < 30:
        return f"{round(days)}d"
    if days < 365:
        return f"{days / 30:.1f}mo"
    return f"{days / 365:.1f}y"


def describe_wait(interval: timedelta) -> str:
    """Relative time in words: "in 9 minutes", "in 3 hours", "in 2 days"."""
    seconds = interval.total_seconds()
    if seconds <= 60:
        return "in under a minute"
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return f"in {count(round(seconds / size), unit)}"
    return "now"  # pragma: no cover: every positive interval above a minute matched


def start_of_day(moment: datetime) -> datetime:
    moment = utc(moment)
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def streak(review_days: Iterable[date], today: date) -> int:
    """Consecutive days with at least one review, ending today, or yesterday while today has none yet."""
    days = set(review_days)
    day = today if today in days else today - timedelta(days=1)
    count = 0
    while day in days:
        count += 1
        day -= timedelta(days=1)
    return count


@dataclass(frozen=True)
class DayCounts:
    days: list[date]
    counts: list[int]


def per_day(moments: Iterable[datetime], first: date, last: date) -> DayCounts:
    """How many of ``moments`` fall on each UTC day from ``first`` to ``last`` inclusive."""
    span = (last - first).days + 1
    counts = [0] * max(span, 0)
    for moment in moments:
        index = (utc(moment).date() - first).days
        if 0 <= index < span:
            counts[index] += 1
    return DayCounts([first + timedelta(days=i) for i in range(span)], counts)


def forecast(dues: Sequence[datetime], today: date, days: int) -> DayCounts:
    """Cards due on each of the next ``days`` days, today first; anything overdue counts today."""
    counts = [0] * days
    for due in dues:
        index = max(0, (utc(due).date() - today).days)
        if index < days:
            counts[index] += 1
    return DayCounts([today + timedelta(days=i) for i in range(days)], counts)
