"""The CSP middleware builds the site policy once, yet follows the settings and django-csp's per-view tools."""

from csp.constants import SELF
from csp.decorators import csp_exempt, csp_update
from django.http import HttpResponse
from django.test import RequestFactory

from prepsite.middleware import CSPMiddleware


def respond(view, path="/x/"):
    request = RequestFactory().get(path)
    middleware = CSPMiddleware(view)
    return middleware(request)


def test_it_sends_the_same_header_as_django_csp_would(settings):
    from csp.middleware import CSPMiddleware as DjangoCSP

    request = RequestFactory().get("/x/")
    ours = CSPMiddleware(lambda r: HttpResponse("ok"))(request)
    theirs = DjangoCSP(lambda r: HttpResponse("ok"))(RequestFactory().get("/x/"))
    assert set(ours["Content-Security-Policy"].split("; ")) == set(theirs["Content-Security-Policy"].split("; "))
    assert "script-src 'self'" in ours["Content-Security-Policy"]


def test_a_changed_setting_changes_the_header(settings):
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": [SELF], "img-src": [SELF, "https://x.example"]}}
    header = respond(lambda r: HttpResponse("ok"))["Content-Security-Policy"]
    assert set(header.split("; ")) == {"default-src 'self'", "img-src 'self' https://x.example"}


def test_per_view_updates_and_exemptions_still_apply():
    updated = respond(csp_update({"img-src": "https://x.example"})(lambda r: HttpResponse("ok")))
    assert "https://x.example" in updated["Content-Security-Policy"]
    assert "Content-Security-Policy" not in respond(csp_exempt()(lambda r: HttpResponse("ok")))


def test_excluded_prefixes_get_no_header(settings):
    settings.CONTENT_SECURITY_POLICY = {**settings.CONTENT_SECURITY_POLICY, "EXCLUDE_URL_PREFIXES": ["/skip/"]}
    assert "Content-Security-Policy" not in respond(lambda r: HttpResponse("ok"), "/skip/this/")
    assert "Content-Security-Policy" in respond(lambda r: HttpResponse("ok"), "/kept/")


def test_pages_are_gzipped_but_htmx_fragments_are_not(client, content):
    page = client.get("/calculators/kv-capacity/", HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in page["Vary"]
    fragment = client.get("/calculators/kv-capacity/", HTTP_ACCEPT_ENCODING="gzip", HTTP_HX_REQUEST="true")
    assert not fragment.has_header("Content-Encoding")
    assert b'<ol class="steps">' in fragment.content
