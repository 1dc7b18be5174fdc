"""Bad input on every parameter of every calculator: a 400 with the message on
that field, on the API, the page and the htmx fragment. Never a 500."""

import pytest

from calculators.engine import registry
from calculators.engine.units import num

CALCULATORS = registry.all_calculators()
NOT_NUMBERS = ["abc", "nan", "NaN", "inf", "-inf", "Infinity", "", " ", "1_000", "１２", "0x10", "1e999", "--1"]


def bad_values(param):
    yield from NOT_NUMBERS
    yield repr(param.minimum - max(abs(param.minimum) * 0.5, param.step, 1))
    yield repr(param.maximum * 2 + 1)
    if param.integer:
        yield "2.5"


def cases():
    for calculator in CALCULATORS:
        for param in calculator.params:
            yield pytest.param(calculator, param, id=f"{calculator.slug}-{param.name}")


@pytest.mark.parametrize(("calculator", "param"), list(cases()))
def test_the_api_rejects_every_bad_value_with_a_400_naming_the_field(client, calculator, param):
    for value in bad_values(param):
        response = client.get(f"/api/calculators/{calculator.slug}/", {param.name: value})
        assert response.status_code == 400, (param.name, value)
        errors = response.json()["errors"]
        assert list(errors) == [param.name], (value, errors)
        assert errors[param.name] and all(isinstance(m, str) and m for m in errors[param.name])


@pytest.mark.parametrize(("calculator", "param"), list(cases()))
def test_the_page_shows_the_message_beside_the_field_and_keeps_a_result(client, calculator, param):
    response = client.get(f"/calculators/{calculator.slug}/", {param.name: "abc"})
    assert response.status_code == 400
    html = response.content.decode()
    assert f'id="err_{param.name}">Enter a number, such as {num(param.default)}.</p>' in html
    assert 'aria-invalid="true"' in html
    assert '<ol class="steps">' in html  # a result computed from the defaults is still there


@pytest.mark.parametrize(("calculator", "param"), list(cases()))
def test_the_fragment_sends_only_the_field_messages_out_of_band(client, calculator, param):
    response = client.get(f"/calculators/{calculator.slug}/", {param.name: "nan"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    html = response.content.decode()
    assert f'<p class="field-error" id="err_{param.name}" hx-swap-oob="true">Enter a finite number' in html
    assert '<ol class="steps">' not in html  # the last good result stays on the page
    assert "<html" not in html


def test_messages_say_what_is_wrong():
    client_values = {
        "abc": "Enter a number, such as 40.",
        "nan": "Enter a finite number, not “nan”.",
        "": "Enter a value (or leave the parameter out to use the default).",
        "0": "Must be at least 1.",
        "1025": "Must be at most 1,024.",
        "2.5": "Enter a whole number.",
        "1e999": "That number is too large.",
    }
    from django.test import Client

    client = Client()
    for value, message in client_values.items():
        response = client.get("/api/calculators/kv-capacity/", {"layers": value})
        assert response.json() == {"errors": {"layers": [message]}}, value


def test_several_bad_fields_are_all_reported(client):
    response = client.get("/api/calculators/kv-capacity/", {"layers": "0", "free_gib": "x", "kv_bytes": "9"})
    assert response.status_code == 400
    assert sorted(response.json()["errors"]) == ["free_gib", "kv_bytes", "layers"]


def test_unknown_parameters_are_ignored(client):
    response = client.get("/api/calculators/kv-capacity/", {"colour": "blue", "layers": "40"})
    assert response.status_code == 200
    assert response.json()["outputs"]["users"] == 14


def test_whole_number_parameters_accept_a_trailing_point_zero(client):
    response = client.get("/api/calculators/kv-capacity/", {"layers": "40.0", "context_tokens": "4.096e3"})
    assert response.status_code == 200
    assert response.json()["inputs"]["layers"] == 40
    assert response.json()["inputs"]["context_tokens"] == 4096


def test_an_unknown_calculator_is_a_404_on_every_path(client):
    assert client.get("/calculators/warp-drive/").status_code == 404
    assert client.get("/calculators/warp-drive/", HTTP_HX_REQUEST="true").status_code == 404
    response = client.get("/api/calculators/warp-drive/")
    assert response.status_code == 404
    assert "There is no calculator called “warp-drive”" in response.json()["errors"]["slug"][0]


def test_posting_to_a_calculator_is_refused(client):
    assert client.post("/calculators/kv-capacity/").status_code == 405
    assert client.post("/api/calculators/kv-capacity/").status_code == 405


CROSS_FIELD = [
    (
        "continuous-batching",
        {"longest_tokens": "400"},
        "longest_tokens",
        "The longest reply (400 tokens) cannot be shorter than the mean reply (500 tokens): raise it to at least 500.",
    ),
    (
        "continuous-batching",
        {"response_tokens": "1500"},
        "longest_tokens",
        "The longest reply (1,000 tokens) cannot be shorter than the mean reply (1,500 tokens): "
        "raise it to at least 1,500.",
    ),
    (
        "paged-attention",
        {"mean_context": "5000"},
        "mean_context",
        "The mean context (5,000 tokens) cannot exceed the longest context allowed (4,096 tokens): "
        "lower it or raise the limit.",
    ),
    (
        "paged-attention",
        {"max_context": "1000"},
        "mean_context",
        "The mean context (1,200 tokens) cannot exceed the longest context allowed (1,000 tokens): "
        "lower it or raise the limit.",
    ),
]


@pytest.mark.parametrize(("slug", "query", "field", "message"), CROSS_FIELD)
def test_a_broken_cross_field_rule_is_a_400_on_the_field_it_names(client, slug, query, field, message):
    api = client.get(f"/api/calculators/{slug}/", query)
    assert api.status_code == 400
    assert api.json() == {"errors": {field: [message]}}

    page = client.get(f"/calculators/{slug}/", query)
    assert page.status_code == 400
    assert f'id="err_{field}">{message}</p>' in page.content.decode()
    assert "Showing the result for the defaults of" in page.content.decode()

    fragment = client.get(f"/calculators/{slug}/", query, HTTP_HX_REQUEST="true")
    assert fragment.status_code == 400
    assert f'id="err_{field}" hx-swap-oob="true">{message}</p>' in fragment.content.decode()


def test_a_cross_field_rule_is_satisfied_at_equality(client):
    assert client.get("/api/calculators/continuous-batching/", {"longest_tokens": "500"}).status_code == 200
    assert client.get("/api/calculators/paged-attention/", {"mean_context": "4096"}).status_code == 200
