"""Practising in a real browser (Debian's chromium): with the mouse, with Anki's keys, under the CSP."""

import json
import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));
"""


@pytest.fixture
def practising(page, transactional_db, shipped_records):
    from tests.conftest import save_shipped

    save_shipped(shipped_records)  # the live server's tables are flushed between tests
    page.add_init_script(WATCH)
    return page


def clean(page) -> None:
    assert page.evaluate("() => window.__violations") == []
    assert page.problems == []


def test_a_candidate_practises_with_the_mouse_from_the_home_page_to_progress(practising):
    from practice.models import Review

    page = practising
    page.goto("/")
    page.locator(".card.bank", has_text="Inference").get_by_role("link", name="Start practising").click()
    expect(page).to_have_url(re.compile(r"/practice/\?bank=inference$"))
    expect(page.get_by_role("checkbox", name="Inference")).to_be_checked()
    page.get_by_role("button", name="Start practising").click()

    expect(page).to_have_url(re.compile(r"/practice/session/$"))
    expect(page.get_by_role("heading", level=1)).to_have_text("KV cache and users per GPU")
    answer = page.locator("#answer-heading")
    expect(answer).to_be_hidden()
    timer = page.locator("#timer")
    expect(timer).to_be_visible()
    expect(timer).to_have_text("0:01", timeout=3000)  # it ticks
    page.get_by_label("Your answer").fill("Bytes per token times tokens per user.")
    page.get_by_text("Show answer").click()
    expect(answer).to_be_visible()
    good = page.get_by_role("button", name=re.compile(r"^Good · 2d"))
    expect(good).to_be_visible()
    good.click()

    expect(page.locator(".message")).to_contain_text("KV cache and users per GPU: Good. Due again in 2 days")
    expect(page.get_by_role("heading", level=1)).not_to_have_text("KV cache and users per GPU")
    expect(page.locator("#answer-heading")).to_be_hidden()  # the next card starts folded
    review = Review.objects.get()
    assert review.rating == 3 and review.answer == "Bytes per token times tokens per user."
    assert 1000 <= review.duration_ms <= 60000  # the browser's timer, from show to answer

    page.get_by_role("link", name="Progress").first.click()
    expect(page.locator("#total-reviews")).to_have_text("1")
    page.wait_for_function(
        "() => document.querySelector('#chart-0 .main-svg') && document.getElementById('chart-0').data"
    )
    drawn = page.evaluate("() => document.getElementById('chart-0').data.map((t) => t.y.reduce((a, b) => a + b, 0))")
    assert drawn[0] == 1  # one review done today
    clean(page)


def test_a_candidate_practises_with_the_keyboard_alone(practising):
    from practice.models import Review

    page = practising
    page.goto("/practice/?bank=inference")
    page.get_by_role("button", name="Start practising").click()
    first = page.get_by_role("heading", level=1).inner_text()
    answer = page.locator("#answer-heading")

    # Keys typed into the answer box are text, not commands.
    box = page.get_by_label("Your answer")
    box.click()
    box.type("1 3 ")
    expect(box).to_have_value("1 3 ")
    expect(answer).to_be_hidden()
    page.keyboard.press("Escape")  # leave the box: the keys work again

    page.keyboard.press("Space")
    expect(answer).to_be_visible()
    expect(page.locator("#timer")).to_have_class(re.compile("stopped"))
    page.keyboard.press("1")  # Again
    expect(page.locator(".message")).to_contain_text(f"{first}: Again. Due again in 10 minutes")

    second = page.get_by_role("heading", level=1).inner_text()
    assert second != first
    page.keyboard.press("4")  # not yet: the answer is folded, so a rating key does nothing
    expect(answer).to_be_hidden()
    page.keyboard.press("Space")
    expect(answer).to_be_visible()
    page.keyboard.press("3")  # Good
    expect(page.locator(".message")).to_contain_text(f"{second}: Good. Due again in 2 days")

    assert list(Review.objects.order_by("reviewed_at").values_list("rating", flat=True)) == [1, 3]
    assert Review.objects.order_by("reviewed_at").first().answer == "1 3"
    clean(page)


def test_without_javascript_the_answer_and_ratings_still_work(browser, live_server, transactional_db, shipped_records):
    from practice.models import Review
    from tests.conftest import save_shipped

    save_shipped(shipped_records)
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/practice/")
    page.get_by_role("button", name="Start practising").click()
    expect(page.locator("#timer")).to_be_hidden()
    page.get_by_text("Show answer").click()  # a plain <details>
    page.get_by_role("button", name=re.compile(r"^Hard · 15m")).click()
    expect(page.locator(".message")).to_contain_text("Hard. Due again in 15 minutes")
    assert Review.objects.get().duration_ms is not None  # timed by the server from when it showed the question
    context.close()


def test_the_export_downloads_as_a_file(practising):
    page = practising
    page.goto("/practice/progress/")
    with page.expect_download() as download:
        page.get_by_role("link", name="JSON").click()
    assert re.fullmatch(r"prepsite-progress-\d{8}-\d{6}\.json", download.value.suggested_filename)
    data = json.loads(download.value.path().read_text())
    assert data["cards"] == [] and data["owner"] == "browser"
    clean(page)
