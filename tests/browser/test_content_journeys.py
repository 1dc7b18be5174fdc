"""Candidates reading questions and the glossary in a real browser (Debian's chromium)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture
def loaded(transactional_db, shipped_records):
    # The live server's database is flushed between tests: load the content for each.
    from tests.conftest import save_shipped

    save_shipped(shipped_records)


def test_a_candidate_goes_from_home_to_a_question_reveals_the_answer_and_opens_the_calculator(page, loaded):
    page.goto("/")
    page.get_by_role("link", name="AI serving infrastructure").click()
    page.get_by_role("link", name=re.compile("users per GPU", re.I)).first.click()
    expect(page).to_have_url(re.compile(r"/questions/users-per-gpu/$"))
    answer = page.locator("#answer-heading")
    expect(answer).to_be_hidden()
    page.get_by_text("Show answer").click()
    expect(answer).to_be_visible()
    expect(page.locator("ol.steps")).to_contain_text("160 KiB per token")
    expect(page.locator("#chart-0 .main-svg").first).to_be_attached()
    page.get_by_role("link", name=re.compile("Open in calculator")).click()
    expect(page).to_have_url(re.compile(r"/calculators/kv-capacity/\?.*free_gib=9"))
    expect(page.locator("#results")).to_contain_text("14 users")
    assert page.problems == []


def test_a_glossary_link_in_a_question_leads_to_the_term_and_back_to_questions(page, loaded):
    page.goto("/questions/request-lifecycle/")
    link = page.locator(".asked a.term, #answer a.term").first
    slug = link.get_attribute("href")
    page.get_by_text("Show answer").click()
    link.click()
    expect(page).to_have_url(re.compile(re.escape(slug) + "$"))
    expect(page.get_by_role("heading", name="Questions that use it")).to_be_visible()
    page.get_by_role("link", name=re.compile("Request lifecycle")).click()
    expect(page).to_have_url(re.compile(r"/questions/request-lifecycle/$"))
    assert page.problems == []


def test_the_glossary_filter_narrows_the_list_as_you_type(page, loaded):
    page.goto("/glossary/")
    items = page.locator(".term-list li:visible")
    total = items.count()
    page.get_by_label("Filter terms").fill("ttft")
    expect(items).to_have_count(1)
    expect(items.first).to_contain_text("Time to first token")
    expect(page.locator("#filter-status")).to_have_text(f"1 of {total} terms match “ttft”.")
    page.get_by_label("Filter terms").fill("")
    expect(items).to_have_count(total)
    assert page.problems == []


def test_search_from_the_home_page_highlights_the_matches(page, loaded):
    page.goto("/")
    page.get_by_role("searchbox").fill("prefix cache")
    page.get_by_role("button", name="Search").click()
    expect(page).to_have_url(re.compile(r"/search/\?q=prefix\+cache$"))
    expect(page.locator("ol.results li").first).to_contain_text("Prefix cache")
    expect(page.locator("ol.results mark").first).to_be_visible()
    assert page.problems == []
