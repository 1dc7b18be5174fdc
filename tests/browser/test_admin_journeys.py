"""An instructor in the admin, in chromium, under the site's real Content-Security-Policy."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__violations.push(e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));
"""
PASSWORD = "a long instructor passphrase"


@pytest.fixture
def instructor_page(page, transactional_db, shipped_records, settings):
    from django.contrib.auth.models import User

    from instructors.groups import ensure_instructors_group
    from tests.conftest import save_shipped

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    save_shipped(shipped_records)
    user = User.objects.create_user("ines", password=PASSWORD, is_staff=True)
    user.groups.add(ensure_instructors_group())  # the live server's flush removed the migration's group
    page.add_init_script(WATCH)
    page.goto("/admin/login/?next=/admin/")
    page.get_by_label("Username").fill("ines")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page).to_have_url(re.compile(r"/admin/$"))
    return page


def violations(page) -> list[str]:
    return page.evaluate("() => window.__violations") + [p for p in page.problems if "Content Security" in p]


def question_pk(slug: str) -> int:
    from questions.models import Question

    return Question.objects.get(slug=slug).pk


def test_the_admin_pages_an_instructor_uses_raise_no_csp_violation(instructor_page):
    page = instructor_page
    pk = question_pk("request-lifecycle")
    for url in ["/admin/", "/admin/questions/bank/", "/admin/questions/question/?q=cache",
                f"/admin/questions/question/{pk}/change/", "/admin/questions/question/add/",
                f"/admin/questions/question/{pk}/history/", "/admin/glossary/term/add/",
                "/admin/calculators/gpupreset/", "/admin/content/import/"]:  # fmt: skip
        page.goto(url)
        expect(page.locator("#content")).to_be_visible()
        assert violations(page) == [], url
    assert page.problems == []


def test_the_markdown_preview_follows_the_typing_and_stays_sanitised(instructor_page):
    page = instructor_page
    page.goto(f"/admin/questions/question/{question_pk('request-lifecycle')}/change/")
    preview = page.locator('[data-preview-for="id_answer"] .markdown-preview-body')
    page.locator("#id_answer").fill('Now **bold** <img src=x onerror="window.__hit=1"> [x](javascript:alert(1))')
    expect(preview.locator("strong")).to_have_text("bold")
    assert "onerror" not in preview.inner_html() and "javascript:" not in preview.inner_html()
    assert page.evaluate("() => window.__hit") is None
    assert violations(page) == [] and page.problems == []


def test_picking_another_calculator_shows_its_inputs_and_an_invalid_value_is_refused_beside_it(instructor_page):
    page = instructor_page
    pk = question_pk("request-lifecycle")
    page.goto(f"/admin/questions/question/{pk}/change/")
    expect(page.locator("#id_value_prompt_tokens")).to_be_visible()
    page.locator("#id_calculator").select_option("kv-capacity")
    expect(page.locator("#id_value_kv_heads")).to_be_visible()  # the page came back with that calculator's inputs
    expect(page.locator(".errornote, .errorlist").first).to_contain_text(re.compile("inputs of the|correct"))
    expect(page.locator("#id_value_prompt_tokens")).to_have_count(0)
    page.locator("#id_value_kv_heads").fill("0")
    page.locator("#id_checks").fill("")
    page.get_by_role("button", name="Save", exact=True).first.click()
    expect(page.locator(".field-value_kv_heads .errorlist")).to_contain_text("Must be at least 1.")
    from questions.models import Question

    assert Question.objects.get(pk=pk).calculator == "prefill-decode"
    page.locator("#id_value_kv_heads").fill("4")
    page.get_by_role("button", name="Save", exact=True).first.click()
    expect(page.locator(".messagelist .success")).to_be_visible()
    saved = Question.objects.get(pk=pk)
    assert saved.calculator == "kv-capacity" and saved.values["kv_heads"] == 4
    assert violations(page) == [] and page.problems == []
