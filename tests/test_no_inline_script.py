"""No inline script, handler or htmx eval anywhere, so script-src 'self' holds.

htmx 4 has no switch for eval: it reaches for Function() only for hx-on
handlers, [filter] expressions in hx-trigger, and js:/javascript: values
(hx-vals, hx-headers, hx-confirm, hx-action). None of them may appear.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from calculators.engine import registry

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html")) + sorted(ROOT.glob("*/templates/**/*.html"))


class Problems(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and not attrs.get("src") and attrs.get("type") != "application/json":
            self.found.append(f"inline <script {attrs}>")
        for name, value in attrs.items():
            value = value or ""
            if re.fullmatch(r"on[a-z]+", name):
                self.found.append(f"inline handler {name}= on <{tag}>")
            if name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"{name} on <{tag}> (htmx evals it)")
            if name in {"hx-trigger", "data-hx-trigger"} and "[" in value:
                self.found.append(f"trigger filter {value!r} on <{tag}> (htmx evals it)")
            if name.startswith(("hx-", "data-hx-")) and re.match(r"\s*(js|javascript):", value):
                self.found.append(f"{name}={value!r} on <{tag}> (htmx evals it)")
            if name in {"href", "src", "action"} and value.strip().lower().startswith("javascript:"):
                self.found.append(f"{name}={value!r} on <{tag}>")


def problems(html: str) -> list[str]:
    parser = Problems()
    parser.feed(html)
    return parser.found


def test_the_checker_finds_each_kind_of_problem():
    html = (
        '<script>alert(1)</script><button onclick="x()">b</button><div hx-on:click="x()"></div>'
        '<input hx-trigger="keyup[key==\'Enter\']"><div hx-vals="js:{a: 1}"></div><a href="javascript:x()">a</a>'
    )
    assert len(problems(html)) == 6


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_has_inline_script_handlers_or_htmx_eval(path):
    assert problems(path.read_text()) == []


CONTENT_PAGES = ["/", "/banks/ai-serving-infrastructure/", "/questions/request-lifecycle/", "/glossary/",
                 "/questions/request-lifecycle/?view=interviewer", "/glossary/kv-cache/", "/search/?q=cache",
                 "/mock/"]  # fmt: skip
PRACTICE_PAGES = ["/practice/", "/practice/session/", "/practice/progress/", "/practice/progress/reset/",
                  "/accounts/login/", "/accounts/register/"]  # fmt: skip
CALCULATOR_PAGES = ["/calculators/", *(f"/calculators/{c.slug}/" for c in registry.all_calculators())]


@pytest.mark.parametrize("url", CONTENT_PAGES + PRACTICE_PAGES + CALCULATOR_PAGES)
def test_no_rendered_page_has_inline_script_handlers_or_htmx_eval(client, db, url):
    page = client.get(url).content.decode()
    fragment = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert problems(page) == [] and problems(fragment) == []


def test_no_mock_interview_page_has_inline_script_handlers_or_htmx_eval(client, db):
    assert client.post("/mock/", {"banks": ["inference"], "count": 2, "minutes": 1}).status_code == 303
    pages = [client.get("/mock/1/")]
    client.post("/mock/1/", {"action": "stop"})
    pages += [client.get("/mock/1/")]
    client.post("/mock/1/", {"action": "score", "covered": ["0"]})
    pages += [client.get("/mock/1/"), client.get("/mock/2/"), client.get("/mock/summary/"), client.get("/mock/9/")]
    assert [p.status_code for p in pages] == [200, 200, 200, 200, 200, 404]
    for page in pages:
        assert problems(page.content.decode()) == []
