"""Progress from the stored cards and reviews: per-bank figures, the streak, the chart, the export."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count

from calculators.engine import figures
from questions.models import Bank

from . import scheduling
from .models import Card, Learner, Review

HISTORY_DAYS = 30
FORECAST_DAYS = 14


@dataclass
class BankProgress:
    bank: Bank
    questions: int
    due_now: int
    learned: int  # practised at least once: out of New
    mature: int  # graduated to Review
    reviews: int
    retention: float | None  # mean fsrs retrievability of the learned cards, now


def learner_cards(learner: Learner):
    return Card.objects.filter(learner=learner) if learner.pk else Card.objects.none()


def learner_reviews(learner: Learner):
    return Review.objects.filter(learner=learner) if learner.pk else Review.objects.none()


def per_bank(learner: Learner, now: datetime) -> list[BankProgress]:
    cards_by_bank: dict[int, list[Card]] = {}
    for card in learner_cards(learner).select_related("question"):
        cards_by_bank.setdefault(card.question.bank_id, []).append(card)
    reviews_by_bank: dict[int, int] = {}
    for bank_id in learner_reviews(learner).values_list("question__bank_id", flat=True):
        reviews_by_bank[bank_id] = reviews_by_bank.get(bank_id, 0) + 1
    out = []
    for bank in Bank.objects.annotate(question_count=Count("questions")):
        cards = cards_by_bank.get(bank.pk, [])
        recall = [scheduling.retrievability(c.to_fsrs(), now, learner.desired_retention) for c in cards]
        out.append(
            BankProgress(
                bank=bank,
                questions=bank.question_count,
                due_now=sum(1 for c in cards if c.due <= now),
                learned=len(cards),
                mature=sum(1 for c in cards if c.state == 2),
                reviews=reviews_by_bank.get(bank.pk, 0),
                retention=sum(recall) / len(recall) if recall else None,
            )
        )
    return out


def streak(learner: Learner, now: datetime) -> int:
    moments = learner_reviews(learner).values_list("reviewed_at", flat=True)
    return scheduling.streak({scheduling.utc(m).date() for m in moments}, scheduling.utc(now).date())


def chart(learner: Learner, now: datetime, bank: Bank | None = None) -> dict:
    """Reviews per day over the last 30 days beside the cards falling due on each of the next 14."""
    today = scheduling.utc(now).date()
    reviews = learner_reviews(learner)
    cards = learner_cards(learner)
    if bank is not None:
        reviews = reviews.filter(question__bank=bank)
        cards = cards.filter(question__bank=bank)
    past = scheduling.per_day(
        reviews.filter(reviewed_at__gte=scheduling.start_of_day(now) - timedelta(days=HISTORY_DAYS - 1)).values_list(
            "reviewed_at", flat=True
        ),
        today - timedelta(days=HISTORY_DAYS - 1),
        today,
    )
    ahead = scheduling.forecast(list(cards.values_list("due", flat=True)), today, FORECAST_DAYS)
    traces = [
        figures.bars([d.isoformat() for d in past.days], past.counts, "Reviews done", color=figures.BLUE,
                     hover="%{x}: %{y} reviews"),
        figures.bars([d.isoformat() for d in ahead.days], ahead.counts, "Due (forecast)", color=figures.ORANGE,
                     hover="%{x}: %{y} due"),
    ]  # fmt: skip
    where = f" · {bank.title}" if bank else ""
    peak = max(past.counts + ahead.counts)
    shape, note = figures.vline(today.isoformat(), "today")
    return figures.figure(
        f"Reviews, last {HISTORY_DAYS} days, and due, next {FORECAST_DAYS} days{where}",
        traces,
        figures.axis("Day (UTC)", type="date"),
        # Whole questions: a tick per question while the counts are small, never a half.
        figures.axis("Questions", rangemode="tozero", **({"dtick": 1} if peak <= 8 else {"tickformat": "d"})),
        shapes=[shape],
        annotations=[note],
        barmode="group",  # today has both: reviews done and cards still due
    )


# The export's columns, in a fixed order: one row per card, then one per review.
CSV_COLUMNS = [
    "record", "question", "bank", "level", "state", "step", "stability", "fsrs_difficulty", "due", "last_review",
    "first_review", "reviewed_at", "rating", "rating_name", "duration_ms", "answer", "due_after",
]  # fmt: skip


def iso(moment: datetime | None) -> str | None:
    return scheduling.utc(moment).isoformat() if moment else None


def export_data(learner: Learner, now: datetime) -> dict:
    cards = learner_cards(learner).select_related("question__bank").order_by("question__bank__order", "question__order")
    reviews = learner_reviews(learner).select_related("question__bank").order_by("reviewed_at", "pk")
    return {
        "exported_at": iso(now),
        "owner": "account" if learner.user_id else "browser",
        "settings": {"desired_retention": learner.desired_retention, "daily_new_limit": learner.daily_new_limit},
        "cards": [
            {
                "question": c.question.slug,
                "bank": c.question.bank.slug,
                "level": c.question.difficulty,
                "state": scheduling.STATE_NAMES[c.state],
                "step": c.step,
                "stability": c.stability,
                "fsrs_difficulty": c.difficulty,
                "due": iso(c.due),
                "last_review": iso(c.last_review),
                "first_review": iso(c.first_review),
            }
            for c in cards
        ],
        "reviews": [
            {
                "question": r.question.slug,
                "bank": r.question.bank.slug,
                "level": r.question.difficulty,
                "reviewed_at": iso(r.reviewed_at),
                "rating": r.rating,
                "rating_name": scheduling.RATING_NAMES[r.rating],
                "duration_ms": r.duration_ms,
                "answer": r.answer,
                "state": scheduling.STATE_NAMES[r.state_after],
                "due_after": iso(r.due_after),
            }
            for r in reviews
        ],
    }


def export_csv(data: dict) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\r\n")
    writer.writeheader()
    for card in data["cards"]:
        writer.writerow({"record": "card", **card})
    for review in data["reviews"]:
        writer.writerow({"record": "review", **review})
    return out.getvalue()
