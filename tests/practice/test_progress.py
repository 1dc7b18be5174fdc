"""The progress page, the export and the reset, from real reviews."""

import csv
import io
import json
import re
from datetime import date

import pytest
from django.test import Client

from practice.models import Card, Learner, Review
from practice.progress import CSV_COLUMNS

from .conftest import choose, rate


def cell(html: str, bank: str, column: int) -> str:
    row = re.search(rf'<tr id="bank-{bank}">(.*?)</tr>', html, re.S).group(1)
    return re.findall(r"<td>(.*?)</td>", row, re.S)[column].strip()


def chart(html: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', html, re.S)[1])[0]


def test_progress_counts_due_learned_reviews_retention_and_streak_per_bank(client, content, clock):
    choose(client, banks=["inference"], limit="3")
    rate(client, 3)  # Good: due in 2 days
    rate(client, 4)  # Easy: due in 8 days
    rate(client, 1)  # Again: due in 10 minutes
    clock.advance(days=1)
    choose(client, banks=["inference"], limit="0")
    rate(client, 3)  # yesterday's Again, graduated today
    clock.advance(days=1)  # two days after the first Good
    html = client.get("/practice/progress/").content.decode()
    assert cell(html, "inference", 0) == "1"  # the first Good is due now
    assert cell(html, "inference", 1) == "3 of 9"
    assert cell(html, "inference", 2) == "3"  # all three graduated to review
    assert cell(html, "inference", 3) == "4"
    retention = int(cell(html, "inference", 4).rstrip(" %"))
    assert 88 <= retention <= 99  # just-due, recently reviewed and an easy one: recall near the 90 % target or above
    assert cell(html, "ai-serving-infrastructure", 1) == "0 of 10" and cell(html, "ai-serving-infrastructure", 4) == "–"
    assert 'id="total-reviews">4<' in html and 'id="total-due">1<' in html
    assert 'id="streak">0 days<' not in html and 'id="streak">2 days<' in html  # days 1 and 2; day 3 not yet


def test_the_chart_shows_reviews_per_day_and_the_forecast(client, content, clock):
    choose(client, banks=["inference"], limit="3")
    rate(client, 3)
    rate(client, 4)
    rate(client, 1)
    figure = chart(client.get("/practice/progress/").content.decode())
    done, due = figure["data"]
    assert len(done["x"]) == 30 and done["x"][-1] == "2026-03-10" and done["y"][-1] == 3 and sum(done["y"]) == 3
    assert len(due["x"]) == 14 and due["x"][0] == "2026-03-10"
    assert due["y"][0] == 1 and due["y"][2] == 1 and sum(due["y"]) == 3  # 10 minutes, 2 days...
    easy = (Card.objects.order_by("-due").first().due.date() - date(2026, 3, 10)).days
    assert 6 <= easy <= 11 and due["y"][easy] == 1  # ...and 8 days, give or take fsrs's fuzz
    assert figure["layout"]["xaxis"]["type"] == "date"


def test_the_progress_page_loads_plotly_and_the_chart_drawer(client, content):
    html = client.get("/practice/progress/").content.decode()
    assert "vendor/plotly-basic-4.1.1.min.js" in html and "js/calculator.js" in html
    assert "plotly" not in client.get("/practice/session/").content.decode()


def test_progress_for_one_bank_lists_and_charts_only_that_bank(client, content, clock):
    choose(client, banks=["inference"], limit="1")
    rate(client, 3)
    html = client.get("/practice/progress/?bank=ai-serving-infrastructure").content.decode()
    assert 'id="bank-inference"' not in html and 'id="bank-ai-serving-infrastructure"' in html
    assert sum(chart(html)["data"][0]["y"]) == 0
    assert sum(chart(client.get("/practice/progress/?bank=inference").content.decode())["data"][0]["y"]) == 1
    missing = client.get("/practice/progress/?bank=nope")
    assert missing.status_code == 404


def test_the_json_export_holds_every_card_and_review(client, content, clock):
    choose(client, banks=["inference"], limit="2")
    rate(client, 3, duration_ms="5100", answer="Layers × 2 × KV heads × head dim × 2 bytes")
    rate(client, 1)
    response = client.get("/practice/progress/export.json")
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="prepsite-progress-20260310-090000.json"'
    data = json.loads(response.content)
    assert data["owner"] == "browser" and data["settings"] == {"desired_retention": 0.9, "daily_new_limit": 2}
    assert [(c["question"], c["state"], c["due"]) for c in data["cards"]] == [
        ("kv-cache-basics", "review", "2026-03-12T09:00:00+00:00"),
        ("serve-70b-ttft-sla", "learning", "2026-03-10T09:10:00+00:00"),
    ]
    first = data["reviews"][0]
    assert first == {
        "question": "kv-cache-basics", "bank": "inference", "level": "warm-up",
        "reviewed_at": "2026-03-10T09:00:00+00:00", "rating": 3, "rating_name": "Good", "duration_ms": 5100,
        "answer": "Layers × 2 × KV heads × head dim × 2 bytes", "state": "review",
        "due_after": "2026-03-12T09:00:00+00:00",
    }  # fmt: skip
    assert data["reviews"][1]["rating_name"] == "Again"


def test_the_csv_export_has_stable_columns_a_row_per_card_and_per_review(client, content, clock):
    choose(client, banks=["inference"], limit="2")
    rate(client, 3, answer='He said "=SUM(A1)", then, a comma')
    rate(client, 2)
    response = client.get("/practice/progress/export.csv")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert response.content.decode().splitlines()[0] == ",".join(CSV_COLUMNS)
    assert [r["record"] for r in rows] == ["card", "card", "review", "review"]
    assert rows[2]["answer"] == 'He said "=SUM(A1)", then, a comma' and rows[2]["rating_name"] == "Good"
    assert rows[3]["rating"] == "2" and rows[3]["due_after"] == "2026-03-10T09:15:00+00:00"


def test_an_empty_export_is_still_valid(client, content):
    data = json.loads(client.get("/practice/progress/export.json").content)
    assert data["cards"] == [] and data["reviews"] == []
    assert client.get("/practice/progress/export.csv").content.decode() == ",".join(CSV_COLUMNS) + "\r\n"


def test_reset_asks_for_confirmation_and_clears_only_this_learners_progress(client, content, clock):
    other = Client()
    choose(other)
    rate(other, 3)
    choose(client, retention="0.95", limit="4")
    rate(client, 3)
    rate(client, 1)
    page = client.get("/practice/progress/reset/").content.decode()
    assert "This deletes 2 question states and 2 reviews kept for this browser" in page
    refused = client.post("/practice/progress/reset/", {})
    assert refused.status_code == 400
    assert "Tick the box to confirm: reset deletes every card and review." in refused.content.decode()
    assert Review.objects.count() == 3
    done = client.post("/practice/progress/reset/", {"confirm": "on"})
    assert done.status_code == 302 and done["Location"] == "/practice/progress/"
    assert "Progress reset: 2 questions and 2 reviews deleted." in client.get("/practice/progress/").content.decode()
    mine = Learner.objects.get(browser=client.session["practice_browser"])
    assert mine.cards.count() == 0 and mine.reviews.count() == 0
    assert (mine.desired_retention, mine.daily_new_limit) == (0.95, 4)  # settings stay
    assert Card.objects.count() == 1 and Review.objects.count() == 1  # the other browser's


@pytest.mark.parametrize("url", ["/practice/progress/", "/practice/progress/export.json", "/practice/progress/reset/"])
def test_a_browser_without_progress_sees_empty_pages_not_errors(client, content, url):
    assert client.get(url).status_code == 200


@pytest.mark.parametrize("name", ["\x00", "inference\x00", "no such bank", "Inference"])
def test_a_bank_name_that_is_not_a_bank_is_a_404_on_progress_and_a_note_on_setup(client, content, name):
    # A NUL reaching a PostgreSQL query is a DataError (a 500): names that cannot be slugs never get that far.
    assert client.get("/practice/progress/", {"bank": name}).status_code == 404
    response = client.get("/practice/", {"bank": name})
    assert response.status_code == 200
    assert "There is no bank with that name; pick from the list below." in response.content.decode()
