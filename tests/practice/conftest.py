import re
from datetime import UTC, datetime, timedelta

import pytest

START = datetime(2026, 3, 10, 9, 0, tzinfo=UTC)


class Clock:
    """The time the practice views see; tests move it forward."""

    def __init__(self, at: datetime):
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, **delta) -> datetime:
        self.at += timedelta(**delta)
        return self.at


@pytest.fixture
def clock(monkeypatch):
    clock = Clock(START)
    monkeypatch.setattr("practice.views.now", clock)
    return clock


def choose(client, banks=("inference",), difficulties=(), retention="0.9", limit="10"):
    response = client.post(
        "/practice/",
        {"banks": list(banks), "difficulties": list(difficulties), "desired_retention": retention,
         "daily_new_limit": limit},
    )  # fmt: skip
    assert response.status_code == 302, response.content.decode()[:2000]
    return response


def shown(client) -> dict:
    """The question the session page shows now, with its hidden fields, or {} when all is done."""
    html = client.get("/practice/session/").content.decode()
    found = re.search(r'name="question" value="([^"]+)"', html)
    if not found:
        return {"html": html}
    return {
        "html": html,
        "question": found.group(1),
        "seen": re.search(r'name="seen" value="(\d+)"', html).group(1),
        "shown_at": re.search(r'name="shown_at" value="(\d+)"', html).group(1),
    }


def rate(client, rating: int, **extra):
    card = shown(client)
    assert "question" in card, "no question to rate"
    response = client.post(
        "/practice/session/",
        {"question": card["question"], "seen": card["seen"], "rating": str(rating), **extra},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return card["question"]
