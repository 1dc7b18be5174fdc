"""export_content / import_content and the admin's export action and import page."""

from io import StringIO
from pathlib import Path

import pytest
import yaml
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

from calculators.models import GpuPreset, ModelPreset
from glossary.models import Term
from instructors.exchange import apply, export_text, parse, plan
from questions.models import Bank, Question

EVERYTHING = (Bank, Question, Term, GpuPreset, ModelPreset)


def snapshot() -> str:
    """The whole content as an export: equal snapshots mean equal content."""
    return export_text()


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in EVERYTHING}


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def test_export_then_import_into_an_empty_database_then_export_again_gives_the_same_bytes(content, presets, tmp_path):
    first = tmp_path / "first.yaml"
    run("export_content", str(first))
    shipped = counts()
    for model in (Question, Bank, Term, GpuPreset, ModelPreset):
        model.objects.all().delete()
    report = run("import_content", str(first))
    assert "questions: 19 created, 0 updated, 0 left alone" in report
    assert counts() == shipped
    second = tmp_path / "second.yaml"
    run("export_content", str(second))
    assert first.read_bytes() == second.read_bytes()
    assert len(first.read_bytes()) > 100_000


def test_the_export_is_readable_yaml_in_a_stable_order(content, presets):
    text = snapshot()
    data = yaml.safe_load(text)
    assert list(data) == ["version", "glossary", "banks", "presets"] and data["version"] == 1
    assert [t["slug"] for t in data["glossary"]] == sorted(t["slug"] for t in data["glossary"])
    orders = [q["order"] for q in data["banks"][0]["questions"]]
    assert orders == sorted(orders)
    assert "\n    answer: |-\n      " in text  # long text as literal blocks, not escaped one-liners
    assert "values: {" in text and "terms: [" in text
    assert snapshot() == text


def test_importing_the_same_file_twice_changes_nothing_the_second_time(content, presets, tmp_path):
    path = tmp_path / "all.yaml"
    path.write_text(snapshot())
    report = run("import_content", str(path))
    assert "glossary terms: 0 created, 0 updated, 54 left alone" in report
    assert "Nothing to change." in report


def test_loading_the_shipped_content_twice_equals_loading_it_once(no_content):
    run("load_content")
    once = snapshot()
    second = run("load_content")
    assert "questions: 0 created, 0 updated, 19 unchanged" in second
    assert snapshot() == once


def test_a_dry_run_shows_each_changed_field_and_writes_nothing(content, presets, tmp_path):
    text = snapshot().replace("title: Request lifecycle, arrival to first token", "title: Lifecycle, renamed")
    path = tmp_path / "edited.yaml"
    path.write_text(text)
    before = snapshot()
    report = run("import_content", str(path), "--dry-run")
    assert "questions: 0 created, 1 updated, 18 left alone" in report
    assert "updated question request-lifecycle" in report
    assert "    title: 'Request lifecycle, arrival to first token' → 'Lifecycle, renamed'" in report
    assert report.rstrip().endswith("Dry run: nothing was written.")
    assert snapshot() == before


def test_the_dry_run_predicts_exactly_what_the_import_then_does(content, presets):
    text = snapshot().replace("title: Request lifecycle, arrival to first token", "title: Lifecycle, renamed")
    text = text.replace("- slug: h200\n    name: ", "- slug: h200-copy\n    name: Copy of ", 1)
    bundle = parse(text, Path("edited.yaml"))
    predicted = plan(bundle).counts()
    done = apply(bundle, comment="test")
    assert {kind: +c for kind, c in predicted.items()} == {kind: +c for kind, c in done.items()}  # + drops zeros
    assert predicted["question"]["updated"] == 1 and predicted["GPU preset"]["created"] == 1


BAD = [
    ("values: {acceptance_rate: 0.7,", "values: {acceptance_rate: 7,",
     "glossary[acceptance-rate].values: acceptance_rate: Must be at most"),
    ("- slug: request-lifecycle\n", "- slug: request-lifecycle\n    surprise: 1\n",
     "banks[ai-serving-infrastructure].questions[request-lifecycle].surprise: unknown field"),
    ("difficulty: warm-up", "difficulty: easy", ".difficulty: “easy” is not one of"),
    ("version: 1", "version: 2", "version: 2 is not a format this site reads"),
    ("terms: [", "terms: [no-such-term, ", ".terms: unknown glossary term “no-such-term”"),
    ("- slug: h200\n", "- slug: h200\n    peak_tflops: -1\n", "the key 'peak_tflops' is given twice in one mapping"),
]  # fmt: skip


@pytest.mark.parametrize("old, new, message", BAD, ids=[b[2] for b in BAD])
def test_a_bad_file_is_refused_naming_the_entry_and_field_and_changes_nothing(content, presets, tmp_path, old, new,
                                                                              message):  # fmt: skip
    text = snapshot()
    assert old in text
    path = tmp_path / "bad.yaml"
    path.write_text(text.replace(old, new, 1))
    before = snapshot()
    with pytest.raises(CommandError) as refused:
        run("import_content", str(path))
    assert str(refused.value).startswith("Refused, nothing was written. ")
    assert message in str(refused.value)
    assert snapshot() == before


def test_a_question_whose_checks_the_new_values_break_is_refused_as_load_content_would(content, presets, tmp_path):
    text = snapshot()
    entry = text.index("- slug: request-lifecycle")
    values_at = text.index("values: {", entry)
    end = text.index("}", values_at)
    edited = text[:values_at] + "values: {params_b: 8}" + text[end + 1 :]
    path = tmp_path / "checks.yaml"
    path.write_text(edited)
    refused = r"questions\[request-lifecycle\]\.checks: the worked answer at these values"
    with pytest.raises(CommandError, match=refused):
        run("import_content", str(path))


def test_a_bank_only_file_may_use_glossary_terms_already_on_the_site(content, presets):
    text = export_text(["inference"])
    assert "glossary:" not in text and "presets:" not in text
    bundle = parse(text, Path("inference.yaml"))
    assert bundle.terms is None and bundle.presets is None
    assert [c.outcome for c in plan(bundle).changes] == ["unchanged"] * (1 + Question.objects.filter(
        bank__slug="inference").count())  # fmt: skip


def test_a_term_whose_name_another_term_already_has_is_refused(content):
    text = "version: 1\nglossary:\n- slug: kv-cache-2\n  term: KV cache\n  definition: Again.\n"
    with pytest.raises(Exception, match=r"glossary\[kv-cache-2\]\.term: “KV cache” already names the term “kv-cache”"):
        parse(text, Path("dup.yaml"))


def test_export_refuses_an_unknown_bank(content):
    with pytest.raises(CommandError, match="No bank called nope"):
        run("export_content", "-", "--bank", "nope")


# The admin ------------------------------------------------------------------------------------------------------


def test_the_export_action_downloads_the_selected_banks(instructor_client, content):
    bank = Bank.objects.get(slug="inference")
    response = instructor_client.post("/admin/questions/bank/", {"action": "export_banks",
                                                                "_selected_action": [str(bank.pk)]})  # fmt: skip
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="prepsite-inference.yaml"'
    assert response.content.decode() == export_text(["inference"])


@pytest.mark.parametrize("url", ["/admin/questions/bank/", "/admin/questions/question/"])
def test_the_bank_and_question_lists_link_to_import_and_export(instructor_client, url):
    page = instructor_client.get(url).content.decode()
    assert 'href="/admin/content/import/"' in page and 'href="/admin/content/export/"' in page


def test_the_admin_exports_everything(instructor_client, content, presets):
    response = instructor_client.get("/admin/content/export/")
    assert response.status_code == 200 and response.content.decode() == snapshot()


def upload(text: str, name: str = "content.yaml") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode(), content_type="application/yaml")


def test_upload_shows_the_dry_run_diff_then_confirm_applies_it(instructor_client, content, presets):
    page = instructor_client.get("/admin/content/import/")
    assert page.status_code == 200 and "Preview the changes" in page.content.decode()
    text = export_text(["inference"]).replace("title: Inference", "title: Inference, revised", 1)
    assert "title: Inference, revised" in text
    shown = instructor_client.post("/admin/content/import/", {"file": upload(text)})
    body = shown.content.decode()
    assert shown.status_code == 200
    assert "updated</strong> bank <code>inference</code>" in body
    assert "title: &#x27;Inference&#x27; → &#x27;Inference, revised&#x27;" in body
    assert Bank.objects.get(slug="inference").title == "Inference"  # nothing written yet
    digest = shown.context["digest"]
    done = instructor_client.post("/admin/content/import/", {"confirm": "1", "digest": digest})
    assert done.status_code == 302 and done["Location"] == "/admin/questions/bank/"
    assert Bank.objects.get(slug="inference").title == "Inference, revised"
    again = instructor_client.post("/admin/content/import/", {"confirm": "1", "digest": digest})
    assert again.status_code == 409 and "upload the file again" in again.content.decode()


def test_a_bad_upload_names_the_entry_and_field_and_changes_nothing(instructor_client, content, presets):
    before = snapshot()
    text = export_text(["inference"]).replace("difficulty: core", "difficulty: trivial", 1)
    shown = instructor_client.post("/admin/content/import/", {"file": upload(text, "mine.yaml")})
    body = shown.content.decode()
    assert "Refused, nothing was written. mine.yaml: banks[inference].questions[" in body
    assert ".difficulty: “trivial” is not one of: warm-up, core, hard" in body
    assert "Apply these changes" not in body
    assert snapshot() == before


@pytest.mark.parametrize("data, status, message", [
    ({}, 400, "Choose a file to import."),
    ({"file": SimpleUploadedFile("x.yaml", b"\xff\xfe\x00")}, 400, "is not UTF-8 text"),
    ({"file": SimpleUploadedFile("x.yaml", b"- just\n- a list\n")}, 200, "must hold a mapping"),
    ({"file": SimpleUploadedFile("x.yaml", b"version: [1\n")}, 200, "is not valid YAML"),
    ({"confirm": "1", "digest": "0" * 64}, 409, "no longer waiting"),
])  # fmt: skip
def test_the_import_page_explains_every_bad_request(instructor_client, db, data, status, message):
    response = instructor_client.post("/admin/content/import/", data)
    assert response.status_code == status
    assert message in response.content.decode()


def test_a_confirm_after_the_content_moved_on_shows_the_new_diff_instead_of_applying(instructor_client, content):
    text = export_text(["inference"]).replace("title: Inference", "title: Inference, revised", 1)
    shown = instructor_client.post("/admin/content/import/", {"file": upload(text)})
    Bank.objects.filter(slug="inference").update(order=42)
    response = instructor_client.post("/admin/content/import/", {"confirm": "1", "digest": shown.context["digest"]})
    assert response.status_code == 200 and "The content changed since that preview" in response.content.decode()
    assert Bank.objects.get(slug="inference").title == "Inference"


def test_someone_without_add_and_change_rights_cannot_import(client, content, django_user_model):
    viewer = django_user_model.objects.create_user("viewer", password="x" * 20, is_staff=True)
    client.force_login(viewer)
    assert client.get("/admin/content/import/").status_code == 403
    assert client.get("/admin/content/export/").status_code == 403
