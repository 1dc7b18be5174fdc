"""Whatever the admin saves, an export carries and an import takes back: the admin applies the import's rules."""

from pathlib import Path

import pytest
from reversion.models import Version

from glossary.models import Term
from instructors.exchange import export_text, parse, plan
from questions.models import Bank, Question

from .conftest import errors_of, form_data


def change_url(row) -> str:
    return f"/admin/{row._meta.app_label}/{row._meta.model_name}/{row.pk}/change/"


@pytest.fixture
def question(content):
    return Question.objects.get(slug="users-per-gpu")


def test_a_slug_an_import_would_refuse_is_refused_beside_the_field_and_the_typed_text_is_kept(
    instructor_client, question
):
    data = form_data(instructor_client.get(change_url(question)))
    data["slug"] = "Users_Per_GPU"
    data["answer"] = "An answer the instructor spent ten minutes on."
    response = instructor_client.post(change_url(question), data)
    assert response.status_code == 200
    assert errors_of(response)["slug"] == ["'Users_Per_GPU' is not a slug (lower-case letters, digits and hyphens)."]
    assert "An answer the instructor spent ten minutes on." in response.content.decode()
    question.refresh_from_db()
    assert question.slug == "users-per-gpu" and Version.objects.get_for_object(question).count() == 0


def test_a_question_order_another_question_of_the_bank_has_is_refused_naming_that_question(instructor_client, question):
    other = question.bank.questions.exclude(pk=question.pk).order_by("order").first()
    data = form_data(instructor_client.get(change_url(question)))
    data["order"] = str(other.order)
    response = instructor_client.post(change_url(question), data)
    assert response.status_code == 200
    assert errors_of(response)["order"] == [
        f"{other.order} is also the order of “{other.title}” in this bank: give each question its own place."
    ]
    assert Question.objects.get(pk=question.pk).order != other.order


def test_order_zero_is_refused_as_an_import_would(instructor_client, question):
    data = form_data(instructor_client.get(change_url(question)))
    data["order"] = "0"
    response = instructor_client.post(change_url(question), data)
    assert response.status_code == 200
    assert errors_of(response)["order"] == ["Must be at least 1."]


def test_the_question_list_refuses_two_questions_at_one_place_and_saves_none_of_the_edits(instructor_client, content):
    first, second, third = Question.objects.filter(bank__slug="inference").order_by("order")[:3]
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2", "_save": "Save",
            "form-0-id": str(first.pk), "form-0-order": str(third.order),
            "form-1-id": str(second.pk), "form-1-order": "0"}  # fmt: skip
    response = instructor_client.post(f"/admin/questions/question/?bank__id__exact={first.bank_id}", data)
    assert response.status_code == 200
    page = response.content.decode()
    assert f"{third.order} is also the order of “{third.title}” in this bank" in page
    assert "Must be at least 1: a bank numbers its questions from 1." in page
    assert [q.order for q in Question.objects.filter(pk__in=[first.pk, second.pk]).order_by("order")] == [
        first.order,
        second.order,
    ]


def test_a_banks_inline_refuses_two_questions_at_one_place(instructor_client, content):
    bank = Bank.objects.get(slug="inference")
    data = form_data(instructor_client.get(change_url(bank)))
    orders = sorted(name for name in data if name.startswith("questions-") and name.endswith("-order"))
    data[orders[1]] = data[orders[0]]
    response = instructor_client.post(change_url(bank), data)
    assert response.status_code == 200
    assert "is also the order of" in response.content.decode()
    assert len(set(bank.questions.values_list("order", flat=True))) == bank.questions.count()


def test_an_alias_that_already_names_another_term_is_refused(instructor_client, content):
    term = Term.objects.get(slug="prefill")
    data = form_data(instructor_client.get(change_url(term)))
    data["aliases"] = "prompt processing\nKV Cache"
    response = instructor_client.post(change_url(term), data)
    assert response.status_code == 200
    assert errors_of(response)["aliases"] == ["“KV Cache” already names the term “kv-cache”."]
    assert "KV Cache" not in Term.objects.get(pk=term.pk).aliases


def test_a_term_related_to_itself_is_refused(instructor_client, content):
    term = Term.objects.get(slug="prefill")
    data = form_data(instructor_client.get(change_url(term)))
    data["related"] = [*data.get("related", []), str(term.pk)]
    response = instructor_client.post(change_url(term), data)
    assert response.status_code == 200
    assert errors_of(response)["related"] == ["A term cannot be related to itself."]


def test_what_the_admin_saves_exports_and_imports_back_unchanged(instructor_client, question):
    data = form_data(instructor_client.get(change_url(question)))
    data["title"] = "What limits users per GPU, edited"
    data["red_flags"] = data["red_flags"] + "\nForgets that the cache grows with every token."
    assert instructor_client.post(change_url(question), data).status_code == 302
    text = export_text()
    changes = plan(parse(text, Path("all.yaml")))
    assert changes.changed == []  # read back with the import's rules: everything is there, nothing differs


def test_a_banks_page_links_to_adding_a_question_placed_after_its_last(instructor_client, content):
    bank = Bank.objects.get(slug="inference")
    page = instructor_client.get(change_url(bank)).content.decode()
    assert f'href="/admin/questions/question/add/?bank={bank.pk}"' in page
    response = instructor_client.get(f"/admin/questions/question/add/?bank={bank.pk}")
    form = response.context["adminform"].form
    assert form["order"].value() == max(bank.questions.values_list("order", flat=True)) + 1 == 10
    assert str(form["bank"].value()) == str(bank.pk)
