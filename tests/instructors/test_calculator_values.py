"""A question's calculator and its starting values, edited as that calculator's own fields with units and bounds."""

import pytest
import reversion
from reversion.models import Version

from glossary.models import Term
from questions.models import Question

from .conftest import errors_of, form_data


@pytest.fixture
def question(content):
    return Question.objects.get(slug="request-lifecycle")


def change_url(question):
    return f"/admin/questions/question/{question.pk}/change/"


def test_the_change_form_shows_each_input_of_the_calculator_with_its_unit_bounds_and_stored_value(
    admin_client, question
):
    response = admin_client.get(change_url(question))
    form = response.context["adminform"].form
    assert question.calculator == "prefill-decode"
    assert "values" not in form.fields
    field = form.fields["value_params_b"]
    assert field.label == "Model parameters (billion)"
    assert field.help_text == (
        "Total parameters; every one is read at each decode step. From 0.1 to 5,000 billion. Blank: the default, 70."
    )
    assert form["value_prompt_tokens"].value() == str(question.values["prompt_tokens"])
    page = response.content.decode()
    assert 'name="value_prompt_tokens"' in page and "Show this calculator" in page


def test_an_out_of_bounds_value_is_refused_beside_its_field_and_nothing_is_saved(instructor_client, question):
    data = form_data(instructor_client.get(change_url(question)))
    data["value_params_b"] = "5000000"
    data["title"] = "A title that must not be saved"
    response = instructor_client.post(change_url(question), data)
    assert response.status_code == 200
    assert errors_of(response)["value_params_b"] == ["Must be at most 5,000."]
    assert "Must be at most 5,000." in response.content.decode()
    question.refresh_from_db()
    assert question.title != "A title that must not be saved"
    assert Version.objects.get_for_object(question).count() == 0


@pytest.mark.parametrize("typed, message", [("lots", "Enter a number"), ("nan", "Enter a finite number"),
                                            ("1e999", "too large")])  # fmt: skip
def test_text_that_is_not_a_number_gets_the_calculators_own_message(admin_client, question, typed, message):
    data = form_data(admin_client.get(change_url(question)))
    data["value_prompt_tokens"] = typed
    response = admin_client.post(change_url(question), data)
    assert response.status_code == 200
    assert any(message in m for m in errors_of(response)["value_prompt_tokens"])
    before = question.values
    question.refresh_from_db()
    assert question.values == before


def test_a_valid_change_stores_only_the_values_given_and_blank_means_the_default(admin_client, question):
    data = form_data(admin_client.get(change_url(question)))
    data["value_prompt_tokens"] = "4000"
    for name in [n for n in data if n.startswith("value_") and n != "value_prompt_tokens"]:
        data[name] = ""
    data["checks"] = ""
    response = admin_client.post(change_url(question), data)
    assert response.status_code == 302, errors_of(response)
    question.refresh_from_db()
    assert question.values == {"prompt_tokens": 4000}
    assert isinstance(question.values["prompt_tokens"], int)


def test_a_check_the_worked_answer_no_longer_shows_is_refused(admin_client, question):
    data = form_data(admin_client.get(change_url(question)))
    data["checks"] = "a figure that is nowhere in the answer"
    response = admin_client.post(change_url(question), data)
    assert response.status_code == 200
    assert errors_of(response)["checks"] == [
        "The worked answer at these values does not show “a figure that is nowhere in the answer”."
    ]


def test_picking_another_calculator_shows_its_inputs_and_saves_nothing_until_saved_again(admin_client, question):
    data = form_data(admin_client.get(change_url(question)))
    data["calculator"] = "kv-capacity"
    data["checks"] = ""
    response = admin_client.post(change_url(question), data)
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert "value_kv_heads" in form.fields and "value_prompt_tokens" not in form.fields
    assert "These are the inputs of the" in str(form.non_field_errors())
    question.refresh_from_db()
    assert question.calculator == "prefill-decode"
    again = form_data(response)
    again["value_kv_heads"] = "4"
    saved = admin_client.post(change_url(question), again)
    assert saved.status_code == 302, errors_of(saved)
    question.refresh_from_db()
    assert question.calculator == "kv-capacity" and question.values["kv_heads"] == 4


def test_a_cross_field_rule_of_the_calculator_is_refused_with_its_message(admin_client, content):
    term = Term.objects.get(slug="admission-control")  # kv-capacity: context must fit the free memory…
    url = f"/admin/glossary/term/{term.pk}/change/"
    data = form_data(admin_client.get(url))
    data["value_context_tokens"] = "1000000000"
    response = admin_client.post(url, data)
    assert response.status_code == 200
    assert errors_of(response)
    term.refresh_from_db()
    assert term.values["context_tokens"] == 4096


def test_a_glossary_term_may_drop_its_calculator_and_then_keeps_no_values(admin_client, content):
    term = Term.objects.get(slug="admission-control")
    url = f"/admin/glossary/term/{term.pk}/change/"
    data = form_data(admin_client.get(url))
    data["calculator"] = ""
    saved = admin_client.post(url, data)  # no inputs to check: saved at once
    assert saved.status_code == 302, errors_of(saved)
    term.refresh_from_db()
    assert (term.calculator, term.values) == ("", {})


def test_adding_a_question_asks_for_the_calculator_then_shows_its_inputs(admin_client, content):
    page = admin_client.get("/admin/questions/question/add/")
    assert not [n for n in page.context["adminform"].form.fields if n.startswith("value_")]
    data = form_data(page)
    bank = Question.objects.get(slug="request-lifecycle").bank
    data.update({"bank": str(bank.pk), "title": "New one", "slug": "new-one", "order": "99", "difficulty": "core",
                 "question": "Q?", "answer": "A.", "takeaway": "T.", "calculator": "roofline"})  # fmt: skip
    shown = admin_client.post("/admin/questions/question/add/", data)
    assert shown.status_code == 200 and "value_peak_tflops" in shown.context["adminform"].form.fields
    assert not Question.objects.filter(slug="new-one").exists()
    saved = admin_client.post("/admin/questions/question/add/", form_data(shown))
    assert saved.status_code == 302, errors_of(saved)
    created = Question.objects.get(slug="new-one")
    assert created.values == {} and created.calculator == "roofline"
    assert reversion.models.Version.objects.get_for_object(created).count() == 1
