"""Practising through HTTP: setup, one question at a time, ratings, the queue and its limits."""

import re
from datetime import UTC, datetime

import pytest
from django.test import Client

from practice.models import Card, Learner, Review
from questions.models import Question

from .conftest import choose, rate, shown


def test_the_setup_page_offers_banks_levels_and_the_default_retention_and_limit(client, content):
    response = client.get("/practice/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="ai-serving-infrastructure"' in html and 'value="inference"' in html
    assert 'value="warm-up"' in html and 'value="hard"' in html
    assert 'name="desired_retention" id="id_desired_retention" value="0.9"' in html
    assert 'name="daily_new_limit" id="id_daily_new_limit" value="10"' in html
    assert 'min="0.7" max="0.99"' in html


def test_a_bank_link_from_the_home_page_preselects_that_bank(client, content):
    html = client.get("/practice/?bank=inference").content.decode()
    assert re.search(r'<input type="checkbox" name="banks" value="inference"[^>]*checked', html)
    assert not re.search(r'<input type="checkbox" name="banks" value="ai-serving-infrastructure"[^>]*checked', html)
    unknown = client.get("/practice/?bank=no-such-bank")
    assert unknown.status_code == 200
    assert "There is no bank with that name" in unknown.content.decode()


def test_reading_the_practice_pages_stores_nothing(client, content):
    for url in ["/practice/", "/practice/session/", "/practice/progress/", "/practice/progress/export.json"]:
        assert client.get(url).status_code == 200
    assert Learner.objects.count() == 0


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("desired_retention", "0.5", "Ensure this value is greater than or equal to 0.7."),
        ("desired_retention", "1", "Ensure this value is less than or equal to 0.99."),
        ("desired_retention", "nan", "Enter a number."),
        ("desired_retention", "", "This field is required."),
        ("daily_new_limit", "-1", "Ensure this value is greater than or equal to 0."),
        ("daily_new_limit", "101", "Ensure this value is less than or equal to 100."),
        ("daily_new_limit", "ten", "Enter a whole number."),
        ("banks", "no-such-bank", "Select a valid choice. no-such-bank is not one of the available choices."),
        ("difficulties", "impossible", "Select a valid choice. impossible is not one of the available choices."),
    ],
)
def test_bad_setup_input_is_a_400_naming_the_problem(client, content, field, value, message):
    data = {"desired_retention": "0.9", "daily_new_limit": "10", field: value}
    response = client.post("/practice/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Learner.objects.count() == 0


def test_setup_is_kept_and_the_session_shows_one_question_with_its_answer_folded(client, content, clock):
    choose(client, banks=["inference"], difficulties=["warm-up"], retention="0.85", limit="5")
    learner = Learner.objects.get()
    assert (learner.desired_retention, learner.daily_new_limit, learner.difficulties) == (0.85, 5, ["warm-up"])
    assert list(learner.banks.values_list("slug", flat=True)) == ["inference"]
    card = shown(client)
    assert card["question"] == "kv-cache-basics"
    html = card["html"]
    assert '<details class="answer" id="answer">' in html and "<summary>Show answer" in html
    assert "2 new left today" in html and "0 due" in html
    buttons = re.findall(r'rate-name">(\w+)</span> · <span class="rate-interval">([^<]+)<', html)
    assert buttons == [("Again", "10m"), ("Hard", "15m"), ("Good", "4d"), ("Easy", "16d")]  # at 90 %: 2d and 8d
    assert card["shown_at"] == str(int(clock().timestamp() * 1000))


def test_rating_good_records_the_review_and_moves_to_the_next_question(client, content, clock):
    choose(client, difficulties=["warm-up"])
    first = rate(client, 3, duration_ms="4200", answer="Two bytes per value, times layers, heads, dims.")
    review = Review.objects.get()
    assert (review.question.slug, review.rating, review.duration_ms) == (first, 3, 4200)
    assert review.answer == "Two bytes per value, times layers, heads, dims."
    assert review.reviewed_at == clock()
    card = Card.objects.get()
    assert card.state == 2 and card.due == datetime(2026, 3, 12, 9, 0, tzinfo=UTC)
    page = shown(client)
    assert page["question"] != first
    assert "KV cache and users per GPU: Good. Due again in 2 days (12 Mar 2026, 09:00 UTC)." in page["html"]


def test_a_good_card_is_not_due_again_today(client, content, clock):
    choose(client, difficulties=["warm-up"], limit="1")
    rate(client, 3)
    clock.advance(hours=14, minutes=59)  # 23:59 UTC, the same day
    html = shown(client)["html"]
    assert "All done for now" in html
    assert "The next question is due" in html
    assert 'datetime="2026-03-11T00:00:00+00:00"' in html  # tomorrow's new question, not this card


def test_an_again_card_comes_back_within_the_session(client, content, clock):
    choose(client, difficulties=["warm-up"], limit="1")
    first = rate(client, 1)
    # Nothing else is left: a card due within the 20-minute learn-ahead window is shown at once.
    assert shown(client)["question"] == first
    clock.advance(minutes=10)
    page = shown(client)
    assert page["question"] == first and "1 due" in page["html"]
    rate(client, 3)
    assert Card.objects.get().state == 2


def test_without_javascript_the_time_taken_is_counted_from_when_the_question_was_shown(client, content, clock):
    choose(client)
    card = shown(client)
    clock.advance(seconds=37)
    client.post("/practice/session/", {"question": card["question"], "seen": card["seen"], "rating": "3",
                                       "shown_at": card["shown_at"]})  # fmt: skip
    assert Review.objects.get().duration_ms == 37000


def test_the_daily_new_limit_holds_and_the_done_page_says_when_more_come(client, content, clock):
    choose(client, limit="2")
    rate(client, 3)
    rate(client, 4)
    html = shown(client)["html"]
    assert "All done for now" in html
    assert "You have started your 2 new questions for today; 7 more wait for tomorrow" in html
    assert "11 Mar 2026, 00:00 UTC</time></strong> (in 15 hours)" in html
    assert 'href="/practice/progress/"' in html
    clock.advance(hours=15)
    assert shown(client)["question"] == "autoscaling-gpu-inference"  # the third inference question, a new day


def test_due_cards_come_before_new_ones(client, content, clock):
    choose(client, limit="10")
    first = rate(client, 3)
    clock.advance(days=2)
    page = shown(client)
    assert page["question"] == first
    assert "1 due" in page["html"]


def test_when_everything_is_done_the_page_says_when_the_next_question_is_due(client, content, clock):
    choose(client, difficulties=["hard"], banks=["inference"])
    rate(client, 3)
    rate(client, 4)
    html = shown(client)["html"]
    due = Card.objects.order_by("due").first().due
    assert f'datetime="{due.isoformat()}"' in html
    assert "(in 2 days)" in html
    assert "daily limit" not in html and "for tomorrow" not in html


def test_a_second_click_on_a_rating_is_not_counted_twice(client, content, clock):
    choose(client)
    card = shown(client)
    data = {"question": card["question"], "seen": card["seen"], "rating": "3"}
    assert client.post("/practice/session/", data).status_code == 302
    assert client.post("/practice/session/", {**data, "rating": "1"}).status_code == 302
    assert Review.objects.count() == 1 and Review.objects.get().rating == 3
    assert "That question was already rated" in shown(client)["html"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rating": "5"}, "Select a valid choice. 5 is not one of the available choices."),
        ({"rating": ""}, "This field is required."),
        ({"rating": "Good"}, "Select a valid choice. Good is not one of the available choices."),
        ({"question": "no-such-question"}, "Select a valid choice. That choice is not one of the available choices."),
        ({"seen": "-1"}, "Ensure this value is greater than or equal to 0."),
        ({"seen": ""}, "This field is required."),
        ({"duration_ms": "1e9"}, "Enter a whole number."),
        ({"duration_ms": "999999999999"}, "Ensure this value is less than or equal to 86400000."),
        ({"answer": "x" * 5001}, "Ensure this value has at most 5000 characters (it has 5001)."),
    ],
)
def test_a_bad_rating_is_a_400_naming_the_problem_and_records_nothing(client, content, clock, data, message):
    choose(client)
    card = shown(client)
    response = client.post("/practice/session/", {"question": card["question"], "seen": "0", "rating": "3", **data})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert "That rating was not recorded" in response.content.decode()
    assert Review.objects.count() == 0


def test_practice_progress_belongs_to_each_browser(content, clock):
    one, two = Client(), Client()
    choose(one)
    rate(one, 3)
    rate(one, 1)
    assert shown(two)["question"] == Question.objects.filter(bank__slug="ai-serving-infrastructure").first().slug
    assert '"reviews":[]' in two.get("/practice/progress/export.json").content.decode()
    assert re.search(r'id="total-reviews">0<', two.get("/practice/progress/").content.decode())
    assert re.search(r'id="total-reviews">2<', one.get("/practice/progress/").content.decode())
    choose(two, banks=["inference"])
    assert shown(two)["question"] == "kv-cache-basics"  # the first browser's ratings are not the second's
    assert Learner.objects.count() == 2


def test_only_get_and_post_are_answered(client, content):
    for url in ["/practice/", "/practice/session/", "/practice/progress/reset/"]:
        assert client.put(url).status_code == 405
    assert client.post("/practice/progress/").status_code == 405
