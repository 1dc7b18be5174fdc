"""Security headers on every kind of response, as the production settings send them."""

import pytest

URLS = [
    "/",
    "/calculators/",
    "/calculators/kv-capacity/",
    "/questions/request-lifecycle/",
    "/glossary/kv-cache/",
    "/search/?q=kv",
    "/calculators/kv-capacity/?layers=0",  # a 400
    "/api/calculators/queueing/",
    "/healthz",
    "/calculators/no-such-calculator/",  # a 404
]


def policy(response) -> dict[str, list[str]]:
    directives = [part.strip().split() for part in response["Content-Security-Policy"].split(";")]
    return {d[0]: d[1:] for d in directives if d}


@pytest.mark.parametrize("url", URLS)
def test_every_response_carries_the_csp_nosniff_referrer_and_frame_headers(client, db, url):
    response = client.get(url)
    assert response.status_code in {200, 400, 404}
    csp = policy(response)
    assert csp["script-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"] and csp["base-uri"] == ["'none'"]
    assert csp["frame-ancestors"] == ["'none'"]
    assert "'unsafe-eval'" not in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"


def test_only_styles_may_be_inline_because_plotly_injects_them(client, db):
    csp = policy(client.get("/calculators/roofline/"))
    unsafe = {name for name, sources in csp.items() if "'unsafe-inline'" in sources}
    assert unsafe == {"style-src"}


def test_https_requests_get_hsts_for_a_year_with_subdomains_and_preload(client, db):
    response = client.get("/calculators/", secure=True)
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"


def test_plain_http_is_redirected_to_https_when_the_switch_is_on(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    from django.test import Client

    response = Client().get("/calculators/kv-capacity/?layers=8")  # a new client builds the middleware anew
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/calculators/kv-capacity/?layers=8"


def test_cookies_are_secure_and_the_session_cookie_is_http_only(client, settings):
    response = client.get("/admin/login/")
    assert response.status_code == 200
    csrf = response.cookies["csrftoken"]
    assert csrf["secure"] is True
    assert settings.SESSION_COOKIE_SECURE is True and settings.SESSION_COOKIE_HTTPONLY is True
