"""/search/?q=: questions and glossary, ranked, highlighted."""

import re

import pytest


def result_urls(html: str) -> list[str]:
    section = html[html.index('<ol class="results">') :]
    return re.findall(r'<li>\s*<a href="([^"]+)">', section)


def test_search_finds_a_term_by_its_name_first(client, content):
    html = client.get("/search/?q=paged+attention").content.decode()
    urls = result_urls(html)
    assert urls[0] == "/glossary/paged-attention/"
    assert "/questions/paged-attention-utilisation/" in urls[:3]
    assert "<mark>paged</mark>" in html.lower()


@pytest.mark.parametrize(
    "alias, slug", [("TTFT", "time-to-first-token"), ("ITL", "inter-token-latency"), ("GQA", "grouped-query-attention")]
)
def test_search_finds_a_term_by_its_alias(client, content, alias, slug):
    assert result_urls(client.get(f"/search/?q={alias}").content.decode())[0] == f"/glossary/{slug}/"


def test_search_finds_questions_by_words_in_their_answers(client, content):
    urls = result_urls(client.get("/search/?q=speculative+decoding").content.decode())
    assert "/questions/speculative-decoding-quality/" in urls


def test_search_reports_the_count_and_escapes_the_query(client, content):
    html = client.get("/search/?q=<script>alert(1)</script>").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_an_empty_search_shows_just_the_form(client, content):
    html = client.get("/search/").content.decode()
    assert 'id="q"' in html and "results for" not in html


def test_a_search_with_no_match_says_so(client, content):
    html = client.get("/search/?q=xylophone").content.decode()
    assert "0 results for “xylophone”." in html
    assert "Nothing matches." in html


def test_a_very_long_query_is_cut_not_refused(client, content):
    assert client.get("/search/?q=" + "kv+" * 500).status_code == 200
