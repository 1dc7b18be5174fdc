"""Password guessing: after five wrong passwords a username is locked from that address, then free again."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.test import RequestFactory
from django.utils import timezone

LOGIN = "/admin/login/?next=/admin/"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def staff(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast; the throttle is the subject
    return User.objects.create_user("sam", password=PASSWORD, is_staff=True, is_superuser=True)


def attempt(client, password, address="10.0.0.1", username="sam"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_login_with_a_clear_message_and_a_correct_one_works_after_the_cool_off(client, staff):
    for _ in range(4):
        response = attempt(client, "guess")
        assert response.status_code == 200
        assert "Please enter the correct username and password" in response.content.decode()
    locked = attempt(client, "guess")
    assert locked.status_code == 429
    page = locked.content.decode()
    assert "After 5 wrong passwords for “sam” from your address, this login is locked for 15 minutes." in page

    still = attempt(client, PASSWORD)  # even the right password is refused while locked
    assert still.status_code == 429
    assert "_auth_user_id" not in client.session

    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    welcome = attempt(client, PASSWORD)
    assert welcome.status_code == 302 and welcome["Location"] == "/admin/"
    assert client.session["_auth_user_id"] == str(staff.pk)


def test_the_lock_holds_for_that_username_from_that_address_only(client, staff):
    for _ in range(5):
        attempt(client, "guess")
    assert attempt(client, PASSWORD).status_code == 429
    assert attempt(client, PASSWORD, address="10.0.0.2").status_code == 302


def test_a_correct_password_before_the_limit_clears_the_count(client, staff):
    for _ in range(4):
        attempt(client, "guess")
    assert attempt(client, PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        assert attempt(client, "guess").status_code == 200
    assert attempt(client, PASSWORD).status_code == 302


def test_any_login_view_that_passes_its_request_is_throttled(staff):
    """The candidates' LoginView calls authenticate(request, ...) like the admin does: the same counter applies."""
    request = RequestFactory().post("/accounts/login/", REMOTE_ADDR="10.0.0.9")
    for _ in range(5):
        assert authenticate(request, username="sam", password="guess") is None
    assert authenticate(request, username="sam", password=PASSWORD) is None
    # The refused sixth try counts too (and restarts the cool-off): guessing on during a lock only prolongs it.
    assert AccessAttempt.objects.get(username="sam", ip_address="10.0.0.9").failures_since_start == 6


def test_force_login_and_authenticate_without_a_request_still_work(client, staff):
    assert authenticate(username="sam", password=PASSWORD) == staff
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_the_candidates_login_page_locks_the_same_way_and_merges_nothing_while_locked(client, staff):
    for _ in range(4):
        response = client.post("/accounts/login/", {"username": "sam", "password": "guess"}, REMOTE_ADDR="10.0.0.7")
        assert response.status_code == 200
    locked = client.post("/accounts/login/", {"username": "sam", "password": "guess"}, REMOTE_ADDR="10.0.0.7")
    assert locked.status_code == 429
    assert "this login is locked for 15 minutes" in locked.content.decode()
    refused = client.post("/accounts/login/", {"username": "sam", "password": PASSWORD}, REMOTE_ADDR="10.0.0.7")
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    welcome = client.post("/accounts/login/", {"username": "sam", "password": PASSWORD}, REMOTE_ADDR="10.0.0.8")
    assert welcome.status_code == 302 and welcome["Location"] == "/practice/"
    assert client.session["_auth_user_id"] == str(staff.pk)
