"""The three readers of a calculator: the full page, the htmx fragment, the JSON API."""

import json
import re

import pytest

from calculators.engine import registry
from tests.calculators.test_contract import CONTRACT

SLUGS = list(CONTRACT)


def chart_data(html: str):
    match = re.search(r'<script type="application/json" id="chart-data">(.*?)</script>', html, re.S)
    return json.loads(match.group(1))


def test_the_index_lists_every_calculator_with_a_link(client):
    response = client.get("/calculators/")
    assert response.status_code == 200
    html = response.content.decode()
    for calculator in registry.all_calculators():
        assert f'href="/calculators/{calculator.slug}/"' in html
        assert calculator.title in html


def test_the_home_page_leads_to_the_calculators(client, content):
    response = client.get("/")
    assert response.status_code == 200
    assert '<a href="/calculators/">Calculators</a>' in response.content.decode()


@pytest.mark.parametrize("slug", SLUGS)
def test_the_page_has_a_slider_and_number_box_per_input_and_the_worked_answer(client, slug):
    calculator = registry.get(slug)
    response = client.get(f"/calculators/{slug}/")
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    result = calculator.run(calculator.defaults)
    for p in calculator.params:
        if p.choices:
            assert f'<select id="id_{p.name}" name="{p.name}"' in html
        else:
            assert f'data-for="id_{p.name}"' in html
            assert f'<input type="number" id="id_{p.name}" name="{p.name}"' in html
        assert f'<label for="id_{p.name}">' in html
    for step in result.steps:
        assert f"<li>{step}</li>" in html.replace("&#x27;", "'").replace("&quot;", '"')
    assert chart_data(html) == json.loads(json.dumps(result.charts))
    assert html.count('class="plot"') == len(result.charts)
    assert 'id="copy-link"' in html
    assert 'role="status"' in html
    assert 'hx-sync="this:replace"' in html and 'hx-replace-url="true"' in html


@pytest.mark.parametrize("slug", SLUGS)
def test_the_fragment_holds_only_the_results(client, slug):
    calculator = registry.get(slug)
    response = client.get(f"/calculators/{slug}/", HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "HX-Request" in response["Vary"]
    html = response.content.decode()
    assert "<html" not in html and "<form" not in html and 'type="range"' not in html
    assert '<ol class="steps">' in html
    assert len(chart_data(html)) == len(calculator.run(calculator.defaults).charts)
    assert '<div id="status" hx-swap-oob="innerHTML">' in html


@pytest.mark.parametrize("slug", SLUGS)
def test_the_api_returns_inputs_outputs_steps_and_charts(client, slug):
    calculator = registry.get(slug)
    response = client.get(f"/api/calculators/{slug}/")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert {"slug", "inputs", "outputs", "steps", "charts"} <= set(body)
    assert body["slug"] == slug
    assert body["inputs"] == calculator.defaults
    assert body["steps"] == calculator.run(calculator.defaults).steps
    assert all(fig["data"] and fig["layout"] for fig in body["charts"])


def test_the_page_reflects_the_values_in_its_address(client):
    response = client.get("/calculators/kv-capacity/?kv_bytes=1&context_tokens=8192")
    html = response.content.decode()
    assert 'name="kv_bytes" value="1"' in html
    assert 'name="context_tokens" value="8192"' in html
    assert "8,192 × 80 KiB = 640 MiB" in html


def test_the_fragment_recomputes_from_the_query(client):
    response = client.get("/calculators/kv-capacity/?kv_bytes=1", HTTP_HX_REQUEST="true")
    assert "= 81,920 bytes = 80 KiB per token" in response.content.decode()


def test_the_api_uses_the_values_given_and_defaults_for_the_rest(client):
    body = client.get("/api/calculators/kv-capacity/?kv_bytes=1").json()
    assert body["inputs"]["kv_bytes"] == 1.0
    assert body["inputs"]["layers"] == 40
    assert body["outputs"]["users_exact"] == pytest.approx(28.8)
    assert body["outputs"]["users"] == 28


def test_the_api_index_lists_every_input_with_its_bounds(client):
    body = client.get("/api/calculators/").json()
    assert [c["slug"] for c in body] == SLUGS
    kv = body[1]
    assert kv["title"] == registry.get("kv-capacity").title
    assert kv["inputs"][0] == {
        "name": "layers",
        "label": "Layers",
        "unit": "layers",
        "default": 40,
        "min": 1,
        "max": 1024,
        "step": 1,
        "integer": True,
    }


def test_a_page_with_a_bad_value_says_which_default_it_shows_instead(client):
    response = client.get("/calculators/kv-capacity/?layers=0&kv_bytes=1")
    html = response.content.decode()
    assert response.status_code == 400
    assert "Must be at least 1." in html
    assert "Showing the result for the defaults of Layers until the highlighted value is fixed." in html
    # the valid value is still used
    assert "80 KiB per token" in html


def test_chart_json_cannot_close_its_script_element(client):
    html = client.get("/calculators/prefill-decode/").content.decode()
    block = re.search(r'id="chart-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in block
