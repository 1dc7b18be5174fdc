"""Sharing a question and running a mock interview in a real browser (Debian's chromium)."""

import re
import time

import pytest
from playwright.sync_api import expect

from questions import mock_views
from questions.models import Question

pytestmark = pytest.mark.browser


@pytest.fixture
def loaded(transactional_db, shipped_records):
    # The live server's database is flushed between tests: load the content for each.
    from tests.conftest import save_shipped

    save_shipped(shipped_records)


def pdf_pages(pdf: bytes) -> int:
    """Pages in a PDF chromium wrote: one /Type /Page object each (the tree's root is /Type /Pages)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def test_an_interviewer_opens_the_interviewer_view_copies_its_link_and_prints_one_page(page, loaded, live_server):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto("/questions/users-per-gpu/")
    expect(page.locator("#answer-heading")).to_be_hidden()
    expect(page.get_by_role("heading", name="Red flags")).to_have_count(0)

    page.get_by_role("navigation", name="Views of this question").get_by_role("link", name="Interviewer view").click()
    expect(page).to_have_url(re.compile(r"/questions/users-per-gpu/\?view=interviewer$"))
    expect(page.get_by_role("heading", name="What a strong answer covers")).to_be_visible()
    expect(page.get_by_role("heading", name="Red flags")).to_be_visible()
    expect(page.get_by_role("heading", name="Follow-up questions")).to_be_visible()
    expect(page.locator("#answer-heading")).to_be_visible()
    expect(page.locator("ol.steps")).to_contain_text("160 KiB per token")
    expect(page.locator("#chart-0 .main-svg").first).to_be_attached()  # drawn at load: no <details> to open
    point = page.locator(".checklist label", has_text="Derives 2 × 40 × 8 × 128 × 2 bytes").get_by_role("checkbox")
    point.check()
    expect(point).to_be_checked()

    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#copy-status")).to_have_text("Link copied.")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{live_server.url}/questions/users-per-gpu/?view=interviewer"

    assert pdf_pages(page.pdf(format="A4")) == 1
    page.emulate_media(media="print")
    expect(page.locator("header.site")).to_be_hidden()
    expect(page.locator(".view-switch")).to_be_hidden()
    expect(page.get_by_role("button", name="Copy link")).to_be_hidden()
    expect(page.locator(".charts")).to_be_hidden()
    expect(page.locator(".print-url")).to_have_text(copied)
    expect(page.locator(".checklist input").first).to_be_visible()
    assert page.problems == []


def test_the_candidate_view_copies_its_own_link(page, loaded, live_server):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.goto("/questions/kv-cache-basics/?view=interviewer")
    page.get_by_role("navigation", name="Views of this question").get_by_role("link", name="Candidate view").click()
    expect(page).to_have_url(re.compile(r"/questions/kv-cache-basics/$"))
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#copy-status")).to_have_text("Link copied.")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{live_server.url}/questions/kv-cache-basics/"
    assert page.problems == []


def test_every_shipped_interviewer_sheet_prints_on_one_a4_and_one_letter_page(page, loaded):
    pages = {}
    for q in Question.objects.order_by("bank__order", "order"):
        page.goto(f"{q.get_absolute_url()}?view=interviewer")
        pages[q.slug] = (pdf_pages(page.pdf(format="A4")), pdf_pages(page.pdf(format="Letter")))
    assert len(pages) == 19
    assert pages == {slug: (1, 1) for slug in pages}


def test_without_javascript_the_link_to_share_is_there_to_select(browser, live_server, loaded):
    context = browser.new_context(base_url=live_server.url, java_script_enabled=False)
    page = context.new_page()
    page.goto("/questions/users-per-gpu/?view=interviewer")
    expect(page.get_by_role("button", name="Copy link")).to_be_hidden()
    expect(page.get_by_label("Link to the interviewer view")).to_have_value(
        f"{live_server.url}/questions/users-per-gpu/?view=interviewer"
    )
    page.goto("/questions/users-per-gpu/")
    page.get_by_text("Show answer").click()
    expect(page.locator("#answer-heading")).to_be_visible()
    context.close()


class Clock:
    """The server's clock with a hand to move it forward (the live server runs in this process)."""

    def __init__(self):
        self.ahead = 0.0

    def __call__(self):
        return time.time() + self.ahead


def test_a_candidate_runs_a_mock_interview_and_gets_weak_topics_with_links(page, loaded, monkeypatch):
    clock = Clock()
    monkeypatch.setattr(mock_views, "now", clock)
    page.goto("/")
    page.get_by_role("link", name="Mock interview").first.click()
    page.get_by_label("AI serving infrastructure").uncheck()
    page.get_by_label("Questions (1 to 20)").fill("25")
    page.get_by_role("button", name="Start the mock interview").click()
    expect(page.get_by_role("alert")).to_contain_text("Questions: Ask for at most 20 questions.")
    expect(page.get_by_label("AI serving infrastructure")).not_to_be_checked()  # the choices are kept

    page.get_by_label("Questions (1 to 20)").fill("2")
    page.get_by_label("Minutes per question (1 to 30)").fill("1")
    page.get_by_role("button", name="Start the mock interview").click()
    expect(page).to_have_url(re.compile(r"/mock/1/$"))
    expect(page.locator(".mock-progress")).to_have_text("Mock interview · question 1 of 2 · 1:00 per question")
    timer = page.locator("#timer")
    expect(timer).to_have_text(re.compile(r"^(1:00|0:5\d) left$"))
    first = timer.text_content()
    expect(timer).not_to_have_text(first, timeout=3000)  # it counts down

    clock.ahead = 90  # a minute and a half later, the page reloaded: the server says 30 s over
    page.reload()
    expect(timer).to_have_text(re.compile(r"^Time is up: 0:3\d over$"))
    expect(timer).to_have_class(re.compile("overtime"))
    page.get_by_role("button", name="Stop the clock and score my answer").click()
    expect(page.locator("#taken")).to_have_text(re.compile(r"^You took 1:3\d of 1:00: 0:3\d over time\.$"))
    title_one = page.locator("h1").text_content()
    page.locator(".checklist input").first.check()
    page.get_by_label("Notes for later (optional)").fill("Forgot the retry factor")
    page.get_by_role("button", name="Save score and go to question 2").click()

    expect(page).to_have_url(re.compile(r"/mock/2/$"))
    page.get_by_role("button", name="Stop the clock and score my answer").click()
    boxes = page.locator(".checklist input")
    for index in range(boxes.count()):
        boxes.nth(index).check()
    page.get_by_role("button", name="Save score and see the summary").click()

    expect(page).to_have_url(re.compile(r"/mock/summary/$"))
    expect(page.get_by_role("heading", name="Mock interview summary")).to_be_visible()
    rows = page.locator("table.scores tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text(title_one)
    expect(rows.nth(0)).to_contain_text("Notes: Forgot the retry factor")
    expect(rows.nth(0).locator("td.overtime")).to_contain_text("over by 0:3")
    weak = page.locator("ol.weak > li")
    expect(weak).to_have_count(1)  # the second question scored every point
    expect(weak.first).to_contain_text(title_one)
    weak.first.get_by_role("link", name=re.compile("calculator$")).click()
    expect(page).to_have_url(re.compile(r"/calculators/[a-z-]+/\?"))
    expect(page.locator("#results")).to_contain_text("Worked answer")
    page.go_back()
    weak.first.locator("a[href^='/glossary/']").first.click()
    expect(page.get_by_role("heading", name="Questions that use it")).to_be_visible()
    # The refused setup (a 400) is the only request that may fail.
    assert [p for p in page.problems if "400" not in p] == []
