"""Every content model's admin pages open for a superuser and for an instructor; users and groups stay closed."""

import pytest
from django.contrib.auth.models import Group, User

from calculators.models import GpuPreset, ModelPreset
from glossary.models import Term
from questions.models import Bank, Question

MODELS = [
    ("questions", "bank", Bank),
    ("questions", "question", Question),
    ("glossary", "term", Term),
    ("calculators", "gpupreset", GpuPreset),
    ("calculators", "modelpreset", ModelPreset),
]


def pages(app, model, row):
    base = f"/admin/{app}/{model}/"
    return [base, f"{base}add/", f"{base}{row.pk}/change/", f"{base}{row.pk}/history/"]


@pytest.mark.parametrize("app, model, cls", MODELS, ids=[m for _, m, _ in MODELS])
@pytest.mark.parametrize("who", ["superuser", "instructor"])
def test_every_content_model_lists_adds_changes_and_shows_history(request, content, presets, app, model, cls, who):
    client = request.getfixturevalue("admin_client" if who == "superuser" else "instructor_client")
    row = cls.objects.order_by("pk").first()
    for url in pages(app, model, row):
        response = client.get(url)
        assert response.status_code == 200, url
    change = client.get(f"/admin/{app}/{model}/{row.pk}/change/").content.decode()
    assert str(row) in change or str(row).replace("'", "&#x27;") in change


def test_the_question_list_filters_by_bank_and_difficulty_and_searches(admin_client, content):
    bank = Bank.objects.get(slug="inference")
    response = admin_client.get(f"/admin/questions/question/?bank__id__exact={bank.pk}&difficulty__exact=hard")
    shown = list(response.context["cl"].result_list)
    expected = Question.objects.filter(bank=bank, difficulty="hard")
    assert shown and {q.pk for q in shown} == {q.pk for q in expected}
    found = admin_client.get("/admin/questions/question/?q=lifecycle").context["cl"].result_list
    assert [q.slug for q in found] == ["request-lifecycle"]


def test_the_glossary_search_finds_a_term_by_its_alias(admin_client, content):
    found = admin_client.get("/admin/glossary/term/?q=TTFT").context["cl"].result_list
    assert "time-to-first-token" in [t.slug for t in found]


def test_an_instructor_reorders_questions_from_the_list(instructor_client, content):
    questions = list(Question.objects.filter(bank__slug="inference").order_by("order"))
    first, second = questions[0], questions[1]
    was = (first.order, second.order)
    data = {"form-TOTAL_FORMS": "2", "form-INITIAL_FORMS": "2", "_save": "Save",
            "form-0-id": str(first.pk), "form-0-order": str(second.order),
            "form-1-id": str(second.pk), "form-1-order": str(first.order)}  # fmt: skip
    bank = questions[0].bank
    response = instructor_client.post(f"/admin/questions/question/?bank__id__exact={bank.pk}", data)
    assert response.status_code == 302
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.order, second.order) == (was[1], was[0])


def test_the_change_pages_link_to_the_public_page(admin_client, content):
    question = Question.objects.get(slug="request-lifecycle")
    page = admin_client.get(f"/admin/questions/question/{question.pk}/change/").content.decode()
    assert "View on site" in page
    term = Term.objects.get(slug="kv-cache")
    assert "View on site" in admin_client.get(f"/admin/glossary/term/{term.pk}/change/").content.decode()


@pytest.mark.parametrize("url", ["/admin/auth/user/", "/admin/auth/user/add/", "/admin/auth/group/",
                                 "/admin/axes/accessattempt/"])  # fmt: skip
def test_an_instructor_is_refused_on_users_groups_and_login_records(instructor_client, url):
    assert instructor_client.get(url).status_code == 403


def test_an_instructor_cannot_delete_content(instructor_client, content):
    bank = Bank.objects.first()
    assert instructor_client.get(f"/admin/questions/bank/{bank.pk}/delete/").status_code == 403
    assert instructor_client.post(f"/admin/questions/bank/{bank.pk}/delete/", {"post": "yes"}).status_code == 403
    assert Bank.objects.filter(pk=bank.pk).exists()


def test_the_instructors_group_holds_add_change_and_view_on_the_content_models_only(db):
    group = Group.objects.get(name="Instructors")
    perms = {(p.content_type.app_label, p.codename) for p in group.permissions.select_related("content_type")}
    expected = {(app, f"{action}_{model}") for app, model, _ in MODELS for action in ("add", "change", "view")}
    assert perms == expected


def test_the_admin_index_shows_an_instructor_the_content_models_and_nothing_else(instructor_client):
    page = instructor_client.get("/admin/")
    names = {model["object_name"] for app in page.context["app_list"] for model in app["models"]}
    assert names == {"Bank", "Question", "Term", "GpuPreset", "ModelPreset"}


def test_a_visitor_is_sent_to_the_login(client, db):
    response = client.get("/admin/questions/question/")
    assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
    assert User.objects.count() == 0
