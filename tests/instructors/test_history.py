"""Every change is recorded with who and when; any earlier version can be restored from the admin."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from reversion.models import Version

from glossary.models import Term
from instructors.exchange import apply, export_text, parse
from questions.models import Question

from .conftest import errors_of, form_data


@pytest.fixture
def question(content):
    return Question.objects.get(slug="request-lifecycle")


def edit(client, question, **changes):
    url = f"/admin/questions/question/{question.pk}/change/"
    data = form_data(client.get(url))
    data.update(changes)
    response = client.post(url, data)
    assert response.status_code == 302, errors_of(response)
    question.refresh_from_db()


def test_an_admin_change_is_recorded_with_who_and_when(instructor_client, instructor, question):
    edit(instructor_client, question, title="Renamed once")
    version = Version.objects.get_for_object(question).get()
    assert version.revision.user == instructor
    assert version.revision.date_created is not None
    assert version.revision.get_comment() == "Changed Title."
    history = instructor_client.get(f"/admin/questions/question/{question.pk}/history/").content.decode()
    assert "ines" in history and "Changed Title" in history


def test_revert_restores_the_text_values_and_glossary_links_of_an_earlier_version(instructor_client, question):
    original_terms = sorted(question.terms.values_list("slug", flat=True))
    edit(instructor_client, question, title="First title")  # version 1: the shipped fields under a new title
    first = Version.objects.get_for_object(question).get()
    kv = Term.objects.get(slug="kv-cache")
    edit(instructor_client, question, title="Second title", value_prompt_tokens="8000", terms=[str(kv.pk)],
         checks="")  # fmt: skip
    assert question.values["prompt_tokens"] == 8000
    assert list(question.terms.values_list("slug", flat=True)) == ["kv-cache"]

    url = f"/admin/questions/question/{question.pk}/history/{first.pk}/"
    shown = instructor_client.get(url)
    assert shown.status_code == 200
    assert shown.context["adminform"].form["title"].value() == "First title"
    question.refresh_from_db()
    assert question.title == "Second title"  # looking at a version changes nothing

    response = instructor_client.post(url, form_data(shown))
    assert response.status_code == 302, errors_of(response)
    question.refresh_from_db()
    assert question.title == "First title"
    assert question.values["prompt_tokens"] == 2000
    assert sorted(question.terms.values_list("slug", flat=True)) == original_terms
    assert Version.objects.get_for_object(question).count() == 3
    assert "Reverted to previous version" in Version.objects.get_for_object(question).first().revision.get_comment()


def test_an_import_records_one_restorable_version_per_row_it_changes(instructor, question):
    text = export_text(["ai-serving-infrastructure"]).replace(
        "title: Request lifecycle, arrival to first token", "title: Imported title"
    )
    apply(parse(text, Path("edited.yaml")), comment="Imported from edited.yaml", user=instructor)
    question.refresh_from_db()
    assert question.title == "Imported title"
    versions = Version.objects.get_for_object(question)
    assert versions.count() == 1
    revision = versions.get().revision
    assert revision.user == instructor and revision.get_comment() == "Imported from edited.yaml"
    assert revision.version_set.count() == 1  # this row only: restoring it touches nothing else
    assert Version.objects.count() == 1  # the rows the import left alone got no version


def test_load_content_records_the_rows_it_changes(question):
    Question.objects.filter(pk=question.pk).update(title="Edited behind its back")
    call_command("load_content", stdout=StringIO())
    question.refresh_from_db()
    assert question.title == "Request lifecycle, arrival to first token"
    version = Version.objects.get_for_object(question).get()
    assert version.revision.get_comment() == "Loaded from the content files (load_content)"
    assert Version.objects.count() == 1
