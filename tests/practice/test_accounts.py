"""Accounts: register, log in, log out, and the browser's progress merging into the account on login."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from practice import scheduling
from practice.models import Card, Learner, Review

from .conftest import choose, rate

PASSWORD = "a-long-enough-passphrase-42"


@pytest.fixture
def account(db):
    return get_user_model().objects.create_user("ada", password=PASSWORD)


def log_in(client, username="ada", password=PASSWORD, **extra):
    return client.post("/accounts/login/", {"username": username, "password": password, **extra})


def test_the_header_offers_log_in_and_register_then_the_username_and_log_out(client, content, account):
    html = client.get("/").content.decode()
    assert '<a href="/accounts/login/">Log in</a> / <a href="/accounts/register/">Register</a>' in html
    assert log_in(client).status_code == 302
    html = client.get("/").content.decode()
    assert "<span>ada</span>" in html
    assert re.search(r'<form method="post" action="/accounts/logout/"[^>]*>.*?Log out</button></form>', html, re.S)


def test_registering_creates_the_account_logs_in_and_keeps_this_browsers_progress(client, content, clock):
    choose(client, retention="0.8", limit="3")
    rate(client, 3)
    rate(client, 1)
    response = client.post("/accounts/register/", {"username": "grace", "password1": PASSWORD, "password2": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/practice/"
    learner = Learner.objects.get()
    assert learner.user.username == "grace" and learner.browser is None
    assert (learner.desired_retention, learner.daily_new_limit) == (0.8, 3)  # the browser's settings came along
    assert learner.cards.count() == 2 and learner.reviews.count() == 2
    assert "<span>grace</span>" in client.get("/practice/progress/").content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"password2": "something-else-entirely"}, "The two password fields didn’t match."),
        ({"password1": "short", "password2": "short"}, "This password is too short."),
        ({"username": "bad name!"}, "Enter a valid username."),
        ({"username": "ada"}, "A user with that username already exists."),
    ],
)
def test_a_bad_registration_is_a_400_naming_the_problem(client, content, account, data, message):
    form = {"username": "grace", "password1": PASSWORD, "password2": PASSWORD, **data}
    response = client.post("/accounts/register/", form)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_a_wrong_password_is_refused_with_a_message(client, content, account):
    response = log_in(client, password="not-the-password")
    assert response.status_code == 200
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_logging_in_merges_the_browsers_progress_into_the_account(client, content, clock, account):
    # Progress in the account from another device: one inference question.
    other = Client()
    log_in(other)
    choose(other, banks=["inference"], limit="1")
    kept = rate(other, 3)
    other.post("/accounts/logout/")
    # This browser, without an account: two questions from the other bank.
    clock.advance(hours=1)
    choose(client, banks=["ai-serving-infrastructure"], limit="5")
    one, two = rate(client, 3), rate(client, 1)
    browser = Learner.objects.get(browser__isnull=False)
    response = log_in(client)
    assert response.status_code == 302 and response["Location"] == "/practice/"
    assert "This browser&#x27;s practice (2 questions, 2 reviews) is now in your account." in (
        client.get("/practice/").content.decode()
    )
    assert not Learner.objects.filter(pk=browser.pk).exists()
    learner = Learner.objects.get(user=account)
    assert sorted(learner.cards.values_list("question__slug", flat=True)) == sorted([kept, one, two])
    assert learner.reviews.count() == 3
    assert learner.daily_new_limit == 1  # an existing account keeps its own settings
    # The browser's id left the session; progress pages now read the account's.
    assert re.search(r'id="total-reviews">3<', client.get("/practice/progress/").content.decode())


def test_a_question_practised_in_both_is_rebuilt_from_all_its_reviews_in_time_order(client, content, clock, account):
    other = Client()
    log_in(other)
    choose(other, banks=["inference"], limit="1")
    first_at = clock()
    slug = rate(other, 1)  # account: Again at 09:00
    clock.advance(minutes=12)
    rate(other, 3)  # account: Good at 09:12
    choose(client, banks=["inference"], limit="1")
    clock.advance(days=3)
    assert rate(client, 2) == slug  # browser: Hard, three days later (a new question to this browser)
    log_in(client)
    card = Card.objects.get(learner__user=account)
    reviews = list(Review.objects.filter(learner__user=account).values_list("reviewed_at", "rating"))
    assert [r for _, r in reviews] == [1, 3, 2]
    expected = scheduling.replay(reviews, 0.9, fuzz=False)
    assert card.state == int(expected.state) == 2
    assert card.stability == pytest.approx(expected.stability)
    assert card.difficulty == pytest.approx(expected.difficulty)
    assert card.last_review == clock()
    assert card.first_review == first_at  # the earlier start counts, for the new limit
    # Replayed from all three, not the browser's lone Hard on a new card (a 15-minute step).
    assert card.due - clock() >= timedelta(days=1)


def test_logging_in_with_an_empty_browser_leaves_the_account_untouched(client, content, clock, account):
    other = Client()
    log_in(other)
    choose(other)
    rate(other, 3)
    client.get("/practice/")  # a visit, no progress
    log_in(client)
    assert Learner.objects.count() == 1 and Review.objects.count() == 1


def test_log_out_is_a_post_and_the_browser_then_starts_afresh(client, content, clock, account):
    log_in(client)
    choose(client)
    rate(client, 3)
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302 and response["Location"] == "/"
    assert re.search(r'id="total-reviews">0<', client.get("/practice/progress/").content.decode())
    log_in(client)
    assert re.search(r'id="total-reviews">1<', client.get("/practice/progress/").content.decode())


def test_login_and_register_follow_a_local_next_but_never_another_site(client, content, account):
    assert log_in(client, next="/practice/progress/")["Location"] == "/practice/progress/"
    client.post("/accounts/logout/")
    assert log_in(client, next="https://evil.example/")["Location"] == "/practice/"
    fresh = Client()
    form = {"username": "grace", "password1": PASSWORD, "password2": PASSWORD, "next": "//evil.example/x"}
    assert fresh.post("/accounts/register/", form)["Location"] == "/practice/"


def test_the_learner_is_a_browser_or_an_account_never_both_nor_neither(db, account):
    from django.db import IntegrityError, transaction

    for kwargs in ({}, {"user": account, "browser": "abc"}):
        with pytest.raises(IntegrityError), transaction.atomic():
            Learner.objects.create(**kwargs)
