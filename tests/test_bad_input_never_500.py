"""Property: whatever arrives in a query string or a path, the answer is 200, 400 or 404, never a 500,
and every number the answer carries is finite or null.

Each URL family is a function from a drawn value to a path; add a family to
FAMILIES (or PATH_FAMILIES) when a page appears. The test client re-raises any
exception a view lets escape, so a would-be 500 fails the test with its traceback.
"""

import json
import math
import re
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calculators.engine import registry

CALCULATORS = registry.all_calculators()
ALLOWED = {200, 400, 404}

# Strings a person or a program might send: numbers written every way, and junk.
TRICKY = st.sampled_from(
    ["", " ", "nan", "NaN", "-inf", "Infinity", "1e309", "-1e309", "1e-400", "1_000", "٣", "１２", "0x1A", "1,000",
     "5 ", "+5", "-0", ".5", "5.", "1e", "--1", "1e-7", "9" * 400, "\x00", "<script>", "' OR 1=1 --", "%00", "🙂"]
)  # fmt: skip
VALUES = st.one_of(
    TRICKY,
    st.text(max_size=40),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
)


def strict_json(text: str):
    """JSON as a browser parses it: NaN and Infinity are errors, not numbers."""

    def refuse(constant):
        raise AssertionError(f"non-finite {constant} in JSON")

    return json.loads(text, parse_constant=refuse)


def assert_numbers_finite(value, where: str):
    if isinstance(value, float):
        assert math.isfinite(value), where
    elif isinstance(value, dict):
        for key, item in value.items():
            assert_numbers_finite(item, f"{where}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            assert_numbers_finite(item, f"{where}[{index}]")


def check_html(response, url):
    assert response.status_code in ALLOWED, url
    html = response.content.decode()
    assert "Traceback" not in html
    for block in re.findall(r'<script type="application/json" id="chart-data">(.*?)</script>', html, re.S):
        assert_numbers_finite(strict_json(block), f"{url} charts")


def check_api(response, url):
    assert response.status_code in ALLOWED, url
    body = strict_json(response.content.decode())
    if response.status_code == 200:
        assert_numbers_finite(body, url)  # a calculator's outputs and charts, or the index's bounds
    else:
        assert body["errors"] and all(
            isinstance(m, str) and m for messages in body["errors"].values() for m in messages
        ), body


# (name, path for a calculator, request headers, checker)
FAMILIES = [
    ("page", lambda slug: f"/calculators/{slug}/", {}, check_html),
    ("fragment", lambda slug: f"/calculators/{slug}/", {"HTTP_HX_REQUEST": "true"}, check_html),
    ("api", lambda slug: f"/api/calculators/{slug}/", {}, check_api),
]
# Paths built from an arbitrary string: unknown slugs, odd characters.
PATH_FAMILIES = [
    ("calculator page", lambda text: f"/calculators/{quote(text, safe='')}/", check_html),
    ("calculator api", lambda text: f"/api/calculators/{quote(text, safe='')}/", check_api),
    ("bank", lambda text: f"/banks/{quote(text, safe='')}/", check_html),
    ("question", lambda text: f"/questions/{quote(text, safe='')}/", check_html),
    ("glossary term", lambda text: f"/glossary/{quote(text, safe='')}/", check_html),
    ("mock interview step", lambda text: f"/mock/{quote(text, safe='')}/", check_html),
    # Query parameters that name a bank: a preselection on setup, a filter on progress.
    ("practice bank", lambda text: f"/practice/?bank={quote(text, safe='')}", check_html),
    ("progress bank", lambda text: f"/practice/progress/?bank={quote(text, safe='')}", check_html),
]
# Pages that take no path parameter (or a real one), hit with arbitrary query strings, q (search) included.
FIXED_PAGES = [
    ("/", check_html),
    ("/calculators/", check_html),
    ("/banks/ai-serving-infrastructure/", check_html),
    ("/questions/request-lifecycle/", check_html),
    ("/mock/", check_html),
    ("/glossary/", check_html),
    ("/glossary/kv-cache/", check_html),
    ("/search/", check_html),
    ("/api/calculators/", check_api),
    ("/api/banks/", check_api),
    ("/api/glossary/", check_api),
    ("/api/presets/", check_api),
    ("/healthz", None),
    ("/practice/", check_html),
    ("/practice/session/", check_html),
    ("/practice/progress/", check_html),
    ("/practice/progress/export.json", check_api),
    ("/practice/progress/export.csv", None),
    ("/practice/progress/reset/", check_html),
    ("/accounts/login/", check_html),
    ("/accounts/register/", check_html),
]

QUICK = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def queries(calculator):
    """Every parameter may be present with any value; unknown and empty names too."""
    params = {p.name: VALUES for p in calculator.params}
    extra = {"unknown": VALUES, "": VALUES}
    return st.fixed_dictionaries({}, optional={**params, **extra})


@pytest.mark.django_db
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f[0])
@pytest.mark.parametrize("calculator", CALCULATORS, ids=lambda c: c.slug)
def test_any_value_of_any_parameter_gets_200_400_or_404_with_finite_numbers(calculator, family):
    _, path, headers, check = family
    client = Client(**headers)
    url = path(calculator.slug)

    @QUICK
    @given(query=queries(calculator))
    def run(query):
        check(client.get(url, query), f"{url}?{query}")

    run()


@pytest.mark.django_db
@pytest.mark.parametrize("family", PATH_FAMILIES, ids=lambda f: f[0])
@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=1, max_size=40))
def test_any_path_segment_gets_200_or_404(family, text):
    _, path, check = family
    url = path(text)
    check(Client().get(url), url)


@pytest.mark.django_db
@pytest.mark.parametrize("page", FIXED_PAGES, ids=lambda p: p[0])
@settings(max_examples=20, deadline=None)
@given(query=st.dictionaries(st.one_of(st.just("q"), st.text(max_size=10)), VALUES, max_size=4))
def test_pages_without_parameters_ignore_any_query(page, query):
    url, check = page
    response = Client().get(url, query)
    assert response.status_code == 200, url
    if check:
        check(response, url)


@pytest.mark.django_db
@settings(max_examples=30, deadline=None)
@given(view=st.one_of(VALUES, st.sampled_from(["interviewer", "candidate", "Interviewer"])))
def test_any_view_of_a_question_is_a_page(view):
    response = Client().get("/questions/request-lifecycle/", {"view": view})
    assert response.status_code == 200
    check_html(response, f"view={view!r}")


# The mock interview's forms, posted by hand with anything in them. Lists of values too (checkboxes).
FORM_VALUES = st.one_of(VALUES, st.lists(VALUES, max_size=3))
MOCK_SETUP = st.fixed_dictionaries(
    {},
    optional={
        "banks": st.one_of(FORM_VALUES, st.sampled_from(["inference", "ai-serving-infrastructure"])),
        "difficulties": st.one_of(FORM_VALUES, st.sampled_from(["warm-up", "core", "hard"])),
        "count": st.one_of(VALUES, st.integers(-5, 25).map(str)),
        "minutes": st.one_of(VALUES, st.integers(-5, 35).map(str)),
        "unknown": VALUES,
    },
)
MOCK_STEP = st.fixed_dictionaries(
    {},
    optional={
        "action": st.one_of(VALUES, st.sampled_from(["stop", "score", "end"])),
        "covered": st.one_of(FORM_VALUES, st.lists(st.integers(-2, 8).map(str), max_size=6)),
        "notes": st.text(max_size=50),
    },
)


@pytest.mark.django_db
@settings(max_examples=60, deadline=None)
@given(data=MOCK_SETUP)
def test_any_mock_setup_starts_an_interview_or_says_what_is_wrong(data):
    response = Client().post("/mock/", data)
    assert response.status_code in {303, 400}, data
    if response.status_code == 303:
        assert response["Location"] == "/mock/1/"
    else:
        assert 'class="status-error form-errors"' in response.content.decode()


@pytest.mark.django_db
@settings(max_examples=60, deadline=None)
@given(number=st.integers(-1, 4), data=MOCK_STEP, then=st.integers(0, 4))
def test_any_post_to_a_mock_question_moves_on_or_says_what_is_wrong(number, data, then):
    client = Client()
    client.post("/mock/", {"banks": ["inference"], "count": "3", "minutes": "1"})
    response = client.post(f"/mock/{number}/", data)
    assert response.status_code in {303, 400, 404}, (number, data)
    for url in (f"/mock/{then}/", "/mock/summary/", "/mock/"):
        check_html(client.get(url), url)


# Forms posted to the practice pages: any value of any field is a redirect (done) or a 400 naming it.
POSTS = [
    ("/practice/", ["banks", "difficulties", "desired_retention", "daily_new_limit"], {302, 400}),
    ("/practice/session/", ["question", "rating", "seen", "duration_ms", "shown_at", "answer"], {302, 400}),
    ("/practice/progress/reset/", ["confirm"], {302, 400}),
    ("/accounts/register/", ["username", "password1", "password2", "next"], {302, 400}),
    # Django's LoginView: errors are a 200; the same username guessed five times from one address is locked (429).
    ("/accounts/login/", ["username", "password", "next"], {200, 302, 429}),
]


@pytest.mark.django_db
@pytest.mark.parametrize("post", POSTS, ids=lambda p: p[0])
def test_any_posted_form_gets_a_redirect_or_a_clear_answer(post):
    url, fields, allowed = post
    client = Client()

    @QUICK
    @given(data=st.fixed_dictionaries({}, optional={name: VALUES for name in [*fields, "unknown"]}))
    def run(data):
        response = client.post(url, data)
        assert response.status_code in allowed, (url, data)
        if response.status_code != 302:
            assert "Traceback" not in response.content.decode()

    run()
