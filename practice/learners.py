"""Finding the learner behind a request, and merging a browser's progress into an account on login."""

from __future__ import annotations

import secrets
from collections import defaultdict

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest

from calculators.engine.units import count

from . import scheduling
from .models import Learner, Review

SESSION_KEY = "practice_browser"


def current_learner(request: HttpRequest, create: bool = False) -> Learner:
    """The account's learner when logged in, else this browser's.

    Without ``create``, a visitor with no progress gets an unsaved learner with the
    defaults, so reading a page writes nothing (crawlers leave no rows behind).
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        learner = Learner.objects.filter(user=user).first()
        if learner is None and create:
            learner = Learner.objects.create(user=user)
        return learner or Learner(user=user)
    token = request.session.get(SESSION_KEY)
    learner = Learner.objects.filter(browser=token).first() if isinstance(token, str) else None
    if learner is None and create:
        token = secrets.token_urlsafe(24)
        learner = Learner.objects.create(browser=token)
        request.session[SESSION_KEY] = token
    if learner is not None and create:
        # Saving the session renews its cookie: progress lives as long as the browser keeps practising.
        request.session.modified = True
    return learner or Learner()


@transaction.atomic
def merge(browser: Learner, account: Learner) -> dict[str, int]:
    """Move a browser's progress into an account's; the browser's learner is deleted.

    Every review is kept. A question only the browser has practised moves over as it is.
    A question practised in both is rebuilt by replaying all its reviews from both, in
    time order, through fsrs at the account's desired retention: the memory state is then
    what one learner who made all those reviews would have, not a choice between two.
    Its first review (for the daily new limit) is the earlier of the two.
    """
    account_cards = {card.question_id: card for card in account.cards.select_for_update()}
    moved = replayed = 0
    both: list[int] = []
    for card in browser.cards.all():
        mine = account_cards.get(card.question_id)
        if mine is None:
            card.learner = account
            card.save(update_fields=["learner"])
            moved += 1
        else:
            mine.first_review = min(mine.first_review, card.first_review)
            mine.save(update_fields=["first_review"])
            both.append(card.question_id)
    reviews = browser.reviews.update(learner=account)
    if both:
        history: dict[int, list] = defaultdict(list)
        for question_id, moment, rating in Review.objects.filter(learner=account, question_id__in=both).values_list(
            "question_id", "reviewed_at", "rating"
        ):
            history[question_id].append((moment, rating))
        for question_id in both:
            card = account_cards[question_id]
            card.take(scheduling.replay(history[question_id], account.desired_retention))
            card.save()
            replayed += 1
    browser.delete()
    return {"moved": moved, "replayed": replayed, "reviews": reviews}


def merge_on_login(sender, request, user, **kwargs) -> None:
    """user_logged_in receiver: the browser's progress joins the account it logged into."""
    if request is None or not hasattr(request, "session"):
        return
    token = request.session.pop(SESSION_KEY, None)
    browser = Learner.objects.filter(browser=token).first() if isinstance(token, str) else None
    if browser is None:
        return
    account, created = Learner.objects.get_or_create(user=user)
    if created:
        # A new account (just registered) starts with the settings the browser was using.
        account.desired_retention = browser.desired_retention
        account.daily_new_limit = browser.daily_new_limit
        account.difficulties = browser.difficulties
        account.save()
        account.banks.set(browser.banks.all())
    if not browser.cards.exists() and not browser.reviews.exists():
        browser.delete()
        return
    counts = merge(browser, account)
    joined = counts["moved"] + counts["replayed"]
    messages.info(
        request,
        f"This browser's practice ({count(joined, 'question')}, {count(counts['reviews'], 'review')}) "
        f"is now in your account.",
        fail_silently=True,  # a login without the messages middleware (force_login in tests) still merges
    )
