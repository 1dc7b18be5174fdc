"""Whatever an instructor pastes, the public pages get sanitised HTML: no script, no handler, no javascript: link."""

import pytest

from glossary.models import Term
from questions.models import Bank, Question
from tests.test_no_inline_script import problems

from .conftest import errors_of, form_data

PASTED = (
    "Looks fine.\n\n<script>alert('x')</script>\n\n<img src=x onerror=\"alert('y')\">\n\n"
    '[a link](javascript:alert(\'z\')) and <a href="javascript:alert(1)" onclick="steal()">another</a>\n\n'
    '<svg onload="alert(2)"></svg> **still bold**'
)


def assert_inert(html: str) -> None:
    lowered = html.lower()
    assert "<script>alert" not in lowered and "onerror" not in lowered and "onclick" not in lowered
    assert "onload" not in lowered and "javascript:" not in lowered
    assert problems(html) == []


def save(client, url, **changes):
    data = form_data(client.get(url))
    data.update(changes)
    response = client.post(url, data)
    assert response.status_code == 302, errors_of(response)


def test_a_malicious_question_answer_and_bank_summary_render_inert_on_the_public_pages(instructor_client, content):
    question = Question.objects.get(slug="request-lifecycle")
    save(instructor_client, f"/admin/questions/question/{question.pk}/change/", question=PASTED, answer=PASTED,
         takeaway="<img src=x onerror=alert(1)> one line")  # fmt: skip
    bank = question.bank
    save(instructor_client, f"/admin/questions/bank/{bank.pk}/change/", summary=PASTED)
    for url in (question.get_absolute_url(), bank.get_absolute_url(), "/"):
        page = instructor_client.get(url).content.decode()
        assert_inert(page)
    page = instructor_client.get(question.get_absolute_url()).content.decode()
    assert "<strong>still bold</strong>" in page and "Looks fine." in page


def test_a_malicious_glossary_definition_renders_inert(instructor_client, content):
    term = Term.objects.get(slug="kv-cache")
    save(instructor_client, f"/admin/glossary/term/{term.pk}/change/", definition=PASTED, example=PASTED)
    for url in (term.get_absolute_url(), "/glossary/"):
        assert_inert(instructor_client.get(url).content.decode())


def test_the_admin_shows_the_sanitised_preview_beside_the_field(instructor_client, content):
    question = Question.objects.get(slug="request-lifecycle")
    Question.objects.filter(pk=question.pk).update(answer=PASTED)
    page = instructor_client.get(f"/admin/questions/question/{question.pk}/change/").content.decode()
    preview = page[page.index('data-preview-for="id_answer"') :]
    preview = preview[: preview.index("</div>\n</div>")]
    assert "<strong>still bold</strong>" in preview
    assert_inert(preview)


@pytest.mark.parametrize("inline, expected", [("0", "<p><strong>bold</strong></p>"), ("1", "<strong>bold</strong>")])
def test_the_preview_endpoint_renders_through_the_one_sanitising_renderer(instructor_client, inline, expected):
    response = instructor_client.post("/admin/content/preview/", {"text": "**bold**", "inline": inline})
    assert response.status_code == 200 and response.content.decode() == expected
    evil = instructor_client.post("/admin/content/preview/", {"text": PASTED}).content.decode()
    assert_inert(evil)


def test_the_preview_endpoint_is_for_staff_only(client, db):
    response = client.post("/admin/content/preview/", {"text": "x"})
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")


def test_the_preview_endpoint_refuses_get(instructor_client):
    assert instructor_client.get("/admin/content/preview/").status_code == 405


def test_bank_summaries_saved_in_the_admin_are_stored_rendered(instructor_client, content):
    bank = Bank.objects.first()
    save(instructor_client, f"/admin/questions/bank/{bank.pk}/change/", summary="Line *one*\r\nline two")
    bank.refresh_from_db()
    assert bank.summary == "Line *one*\nline two"
    assert bank.summary_html == "<p>Line <em>one</em>\nline two</p>"
