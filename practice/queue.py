"""What to ask next: due cards first, then new questions within the day's limit, then learning cards early.

And recording a rating. The scheduling itself is fsrs's (``scheduling``); this module
only chooses among questions and stores what fsrs returns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import QuerySet

from questions.models import Bank, Question

from . import scheduling
from .models import Card, Learner, Review


def scope(learner: Learner) -> QuerySet[Question]:
    """The questions this learner chose to practise: their banks (all when none) at their levels."""
    questions = Question.objects.filter(difficulty__in=learner.difficulty_choices())
    if learner.pk:
        banks = list(learner.banks.values_list("pk", flat=True))
        if banks:
            questions = questions.filter(bank__in=banks)
    return questions


def cards(learner: Learner) -> QuerySet[Card]:
    return Card.objects.filter(learner=learner) if learner.pk else Card.objects.none()


def new_today(learner: Learner, now: datetime) -> int:
    """New questions started today (UTC), in any bank: the daily limit is the learner's, not the scope's."""
    return cards(learner).filter(first_review__gte=scheduling.start_of_day(now)).count()


@dataclass
class Next:
    question: Question | None
    card: Card | None  # None for a new question
    due_count: int  # due now, in scope, this one included
    new_left: int  # new questions that may still be started today, in scope
    new_unseen: int  # questions in scope never practised
    next_due: datetime | None  # when nothing is left: the next moment something is
    limit_reached: bool

    @property
    def is_new(self) -> bool:
        return self.question is not None and self.card is None


def next_question(learner: Learner, now: datetime) -> Next:
    questions = scope(learner)
    in_scope = cards(learner).filter(question__in=questions).select_related("question__bank")
    due = in_scope.filter(due__lte=now).order_by("due", "pk")
    due_count = due.count()
    unseen = questions.exclude(pk__in=cards(learner).values("question")).select_related("bank")
    unseen_count = unseen.count()
    new_left = max(0, learner.daily_new_limit - new_today(learner, now))
    new_available = min(new_left, unseen_count)
    info = dict(due_count=due_count, new_left=new_available, new_unseen=unseen_count, next_due=None,
                limit_reached=unseen_count > 0 and new_left == 0)  # fmt: skip

    card = due.first()
    if card is not None:
        return Next(question=card.question, card=card, **info)
    if new_available:
        question = unseen.order_by("bank__order", "order", "pk").first()
        return Next(question=question, card=None, **info)
    soon = (
        in_scope.filter(due__lte=now + scheduling.LEARN_AHEAD, state__in=[1, 3])  # Learning, Relearning
        .order_by("due", "pk")
        .first()
    )
    if soon is not None:
        return Next(question=soon.question, card=soon, **info)
    upcoming = in_scope.order_by("due").values_list("due", flat=True).first()
    if info["limit_reached"]:
        tomorrow = scheduling.start_of_day(now) + timedelta(days=1)
        upcoming = min(upcoming, tomorrow) if upcoming else tomorrow
    info["next_due"] = upcoming
    return Next(question=None, card=None, **info)


class StaleRating(Exception):
    """The card was rated since this question was shown (a second click, or another tab)."""


@transaction.atomic
def record(
    learner: Learner,
    question: Question,
    rating: int,
    now: datetime,
    *,
    seen: int,
    duration_ms: int | None = None,
    answer: str = "",
) -> Card:
    """Rate a question: fsrs updates its card (created on the first rating) and the review is logged.

    ``seen`` is how many reviews the question had when it was shown; if that has
    changed, this rating was already given and is refused rather than counted twice.
    """
    card = Card.objects.select_for_update().filter(learner=learner, question=question).first()
    reviews = Review.objects.filter(learner=learner, question=question).count()
    if reviews != seen:
        raise StaleRating
    before = card.to_fsrs() if card else scheduling.new_card(now)
    after = scheduling.review(before, rating, now, learner.desired_retention)
    if card is None:
        card = Card(learner=learner, question=question, first_review=now)
    card.take(after)
    card.save()
    Review.objects.create(
        learner=learner,
        question=question,
        rating=rating,
        reviewed_at=now,
        duration_ms=duration_ms,
        answer=answer,
        state_after=card.state,
        due_after=card.due,
    )
    return card


def reset(learner: Learner) -> tuple[int, int]:
    """Forget this learner's cards and reviews (their settings stay). Returns (cards, reviews) deleted."""
    if not learner.pk:
        return 0, 0
    with transaction.atomic():
        reviews = learner.reviews.all().delete()[0]
        count = learner.cards.all().delete()[0]
    return count, reviews


def banks_in_scope(learner: Learner) -> list[Bank]:
    if learner.pk:
        chosen = list(learner.banks.all())
        if chosen:
            return chosen
    return list(Bank.objects.all())
