from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.utils import timezone

from practice.models import Card, Learner, Review

from .conftest import choose, rate


def prune(*args) -> str:
    out = StringIO()
    call_command("prune_learners", *args, stdout=out)
    return out.getvalue().strip()


def test_progress_whose_session_expired_is_pruned_and_live_browsers_and_accounts_are_kept(db, content, clock):
    gone, here, account = Client(), Client(), Client()
    for client in (gone, here):
        choose(client)
        rate(client, 3)
    user = User.objects.create_user("ada", password="x")
    account.force_login(user)
    choose(account)
    rate(account, 3)
    assert Learner.objects.count() == 3
    Session.objects.filter(session_key=gone.session.session_key).update(expire_date=timezone.now() - timedelta(1))

    assert prune("--dry-run") == (
        "would delete 1 browser learner with no live session (1 card, 1 review); 1 browser still has one."
    )
    assert Learner.objects.count() == 3
    assert prune() == "deleted 1 browser learner with no live session (1 card, 1 review); 1 browser still has one."
    assert Learner.objects.filter(user=user).exists()
    assert Learner.objects.filter(user__isnull=True).count() == 1
    assert Card.objects.count() == 2 and Review.objects.count() == 2
    assert "1 of 9" in here.get("/practice/progress/").content.decode()  # the live browser still finds its progress


def test_pruning_refuses_when_sessions_are_not_kept_in_the_database(db, settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"
    with pytest.raises(CommandError, match="reads sessions from the database, but SESSION_ENGINE is"):
        prune()
