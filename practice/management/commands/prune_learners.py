"""Delete the progress of browsers that can never come back: no live session holds their id any more.

A browser's progress is found through the random id in its server-side session. Once
that session has expired (or been cleared), nothing can reach the progress again, so
it only takes space. Accounts' progress is never touched. Run it after Django's own
``clearsessions``, for example daily from cron.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from calculators.engine.units import count
from practice.learners import SESSION_KEY
from practice.models import Card, Learner, Review


def live_browser_ids() -> set[str]:
    """Every browser id held by a session that has not expired."""
    from django.contrib.sessions.backends.db import SessionStore

    store = SessionStore()
    ids = set()
    for data in (
        Session.objects.filter(expire_date__gt=timezone.now()).values_list("session_data", flat=True).iterator()
    ):
        token = store.decode(data).get(SESSION_KEY)
        if isinstance(token, str):
            ids.add(token)
    return ids


class Command(BaseCommand):
    help = "Delete practice progress that belongs to browsers whose sessions have expired (accounts are kept)."

    def add_arguments(self, parser):
        parser.add_argument("--dry-run", action="store_true", help="Say what would be deleted; delete nothing.")

    def handle(self, *args, dry_run: bool = False, **options):
        if settings.SESSION_ENGINE not in (
            "django.contrib.sessions.backends.db",
            "django.contrib.sessions.backends.cached_db",
        ):
            raise CommandError(
                f"prune_learners reads sessions from the database, but SESSION_ENGINE is {settings.SESSION_ENGINE}."
            )
        with transaction.atomic():
            live = live_browser_ids()
            orphans = Learner.objects.filter(user__isnull=True).exclude(browser__in=live)
            orphan_count = orphans.count()
            cards = Card.objects.filter(learner__in=orphans).count()
            reviews = Review.objects.filter(learner__in=orphans).count()
            if not dry_run:
                orphans.delete()
        verb = "would delete" if dry_run else "deleted"
        self.stdout.write(
            f"{verb} {count(orphan_count, 'browser learner')} with no live session "
            f"({count(cards, 'card')}, {count(reviews, 'review')}); "
            f"{len(live)} browser{' still has' if len(live) == 1 else 's still have'} one."
        )
