"""The glossary: A–Z index with a filter, term pages, /api/glossary/."""

import re

from glossary.models import Term


def test_the_index_lists_every_term_under_its_letter(client, content):
    html = client.get("/glossary/").content.decode()
    assert '<section class="letter" id="letter-K" aria-label="K">' in html
    for term in Term.objects.all():
        assert f'href="/glossary/{term.slug}/"' in html
    assert '<a href="#letter-P">P</a>' in html


def test_the_index_filter_works_without_javascript_and_matches_aliases(client, content):
    html = client.get("/glossary/?q=ttft").content.decode()
    assert re.findall(r'href="/glossary/([a-z0-9-]+)/"', html) == ["time-to-first-token"]
    assert "1 of " in html and "terms match “ttft”." in html


def test_a_filter_with_no_match_says_so_and_offers_search(client, content):
    html = client.get("/glossary/?q=zzzz").content.decode()
    assert "No term matches “zzzz”." in html
    assert 'href="/search/?q=zzzz"' in html


def test_a_term_page_has_definition_example_related_terms_and_questions(client, content):
    term = Term.objects.get(slug="kv-cache")
    html = client.get("/glossary/kv-cache/").content.decode()
    assert "<h1>KV cache</h1>" in html
    assert term.definition_html[:30] in html
    assert '<h2 id="example-heading">Worked example</h2>' in html
    for related in term.related.all():
        assert f'<a href="/glossary/{related.slug}/">' in html
    for q in term.questions.all():
        assert f'<a href="/questions/{q.slug}/">' in html
    assert term.questions.exists()


def test_a_term_with_a_calculator_shows_its_figures_live_and_links_to_it(client, content):
    term = Term.objects.exclude(calculator="").first()
    html = client.get(term.get_absolute_url()).content.decode()
    assert "Computed live by the" in html
    assert f'href="/calculators/{term.calculator}/' in html


def test_a_term_page_never_links_to_itself_in_its_text(client, content):
    html = client.get("/glossary/kv-cache/").content.decode()
    assert 'class="term" href="/glossary/kv-cache/"' not in html


def test_unknown_term_is_404(client, content):
    assert client.get("/glossary/nope/").status_code == 404


def test_the_api_lists_every_term(client, content):
    data = client.get("/api/glossary/").json()
    assert len(data) == Term.objects.count()
    kv = next(item for item in data if item["slug"] == "kv-cache")
    assert kv["term"] == "KV cache"
    assert kv["url"] == "http://testserver/glossary/kv-cache/"
    assert {"slug", "term", "url"} <= set(kv)
    assert [item["term"] for item in data] == sorted((item["term"] for item in data), key=str)


def test_a_term_whose_example_values_no_longer_fit_says_so_instead_of_failing(client, content):
    Term.objects.filter(slug="kv-cache").update(values={"kv_bytes": 99})
    response = client.get("/glossary/kv-cache/")
    assert response.status_code == 200
    assert "out of range: kv_bytes: Must be at most 4." in response.content.decode()
