"""Who practises (a browser or an account), each question's memory state, and every review."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from fsrs import Card as FsrsCard
from fsrs import State

from questions.models import Difficulty

from . import scheduling

MIN_NEW_LIMIT = 0
MAX_NEW_LIMIT = 100
DEFAULT_NEW_LIMIT = 10


class Learner(models.Model):
    """Progress belongs to a browser (a random id kept in its server-side session) or to an account.

    The browser id is not the session key: Django cycles the session key on login, and
    logging in is exactly when the browser's progress must still be found to merge it.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="learner"
    )
    browser = models.CharField(max_length=64, unique=True, null=True, blank=True, editable=False)
    desired_retention = models.FloatField(
        default=scheduling.DEFAULT_RETENTION,
        validators=[MinValueValidator(scheduling.MIN_RETENTION), MaxValueValidator(scheduling.MAX_RETENTION)],
    )
    daily_new_limit = models.PositiveSmallIntegerField(
        default=DEFAULT_NEW_LIMIT, validators=[MinValueValidator(MIN_NEW_LIMIT), MaxValueValidator(MAX_NEW_LIMIT)]
    )
    banks = models.ManyToManyField("questions.Bank", blank=True, help_text="Practise these banks; none means all.")
    difficulties = models.JSONField(default=list, blank=True, help_text="Practise these levels; empty means all.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) ^ models.Q(browser__isnull=False), name="learner_one_owner"
            ),
        )

    def __str__(self) -> str:
        return f"user {self.user}" if self.user_id else f"browser {self.browser[:8]}…"

    def difficulty_choices(self) -> list[str]:
        return [d for d in self.difficulties if d in Difficulty.values] or list(Difficulty.values)


class Card(models.Model):
    """One question's memory state for one learner: fsrs's Card, stored. A row exists once reviewed."""

    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="cards")
    question = models.ForeignKey("questions.Question", on_delete=models.CASCADE, related_name="practice_cards")
    state = models.PositiveSmallIntegerField(choices=[(int(s), scheduling.STATE_NAMES[s]) for s in State])
    step = models.PositiveSmallIntegerField(null=True, blank=True)
    stability = models.FloatField(null=True, blank=True)
    difficulty = models.FloatField(null=True, blank=True)
    due = models.DateTimeField()
    last_review = models.DateTimeField(null=True, blank=True)
    first_review = models.DateTimeField(help_text="When it stopped being new: counts against that day's new limit.")

    class Meta:
        constraints = (models.UniqueConstraint(fields=["learner", "question"], name="one_card_per_question"),)
        indexes = (models.Index(fields=["learner", "due"]),)

    def __str__(self) -> str:
        return f"{self.question} ({self.get_state_display()}, due {self.due:%Y-%m-%d %H:%M})"

    def to_fsrs(self) -> FsrsCard:
        return FsrsCard(
            card_id=self.pk or 0,
            state=State(self.state),
            step=self.step,
            stability=self.stability,
            difficulty=self.difficulty,
            due=scheduling.utc(self.due),
            last_review=scheduling.utc(self.last_review) if self.last_review else None,
        )

    def take(self, card: FsrsCard) -> None:
        self.state = int(card.state)
        self.step = card.step
        self.stability = card.stability
        self.difficulty = card.difficulty
        self.due = card.due
        self.last_review = card.last_review


class Review(models.Model):
    """One rating, as given: the progress chart, the streak, the export and any merge replay read these."""

    learner = models.ForeignKey(Learner, on_delete=models.CASCADE, related_name="reviews")
    question = models.ForeignKey("questions.Question", on_delete=models.CASCADE, related_name="practice_reviews")
    rating = models.PositiveSmallIntegerField(choices=sorted(scheduling.RATING_NAMES.items()))
    reviewed_at = models.DateTimeField(db_index=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True, help_text="Time from question to rating.")
    answer = models.TextField(blank=True, help_text="What the candidate typed before showing the answer.")
    state_after = models.PositiveSmallIntegerField(choices=[(int(s), scheduling.STATE_NAMES[s]) for s in State])
    due_after = models.DateTimeField()

    class Meta:
        ordering = ("reviewed_at", "pk")
        indexes = (models.Index(fields=["learner", "question", "reviewed_at"]),)

    def __str__(self) -> str:
        return f"{self.question}: {self.get_rating_display()} at {self.reviewed_at:%Y-%m-%d %H:%M}"
