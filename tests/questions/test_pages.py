"""Home, bank and question pages."""

import re
from html import unescape

from questions.models import Question


def test_home_lists_the_banks_with_their_question_counts_and_a_search_box(client, content):
    response = client.get("/")
    html = response.content.decode()
    assert response.status_code == 200
    assert '<a href="/banks/ai-serving-infrastructure/">AI serving infrastructure</a>' in html
    assert '<a href="/banks/inference/">Inference</a>' in html
    assert "10 questions" in html and "9 questions" in html
    assert '<form class="search-box" method="get" action="/search/" role="search">' in html
    assert 'href="/practice/?bank=ai-serving-infrastructure">Start practising</a>' in html


def test_home_works_before_any_content_is_loaded(client, no_content):
    response = client.get("/")
    assert response.status_code == 200
    assert "No banks are loaded yet" in response.content.decode()


def test_a_bank_lists_its_questions_in_order_with_difficulty(client, content):
    html = client.get("/banks/ai-serving-infrastructure/").content.decode()
    slugs = re.findall(r'<li><a href="/questions/([a-z0-9-]+)/">', html)
    assert slugs == list(
        Question.objects.filter(bank__slug="ai-serving-infrastructure").order_by("order").values_list("slug", flat=True)
    )
    assert slugs[0] == "request-lifecycle" and slugs[-1] == "decode-memory-bound"
    assert '<span class="difficulty difficulty-warm-up">Warm-up</span>' in html
    assert '<span class="difficulty difficulty-hard">Hard</span>' in html


def test_unknown_banks_and_questions_are_404(client, content):
    assert client.get("/banks/nope/").status_code == 404
    assert client.get("/questions/nope/").status_code == 404


def test_a_question_page_hides_the_answer_behind_show_answer(client, content):
    html = client.get("/questions/users-per-gpu/").content.decode()
    assert '<details class="answer" id="answer">\n  <summary>Show answer</summary>' in html
    q = Question.objects.get(slug="users-per-gpu")
    assert html.index("<summary>Show answer</summary>") < html.index('<h2 id="answer-heading">Answer</h2>')
    assert "Question 2 of 10" in html
    assert '<span class="difficulty difficulty-core">Core</span>' in html
    assert q.takeaway_html[:40] in html or unescape(q.takeaway_html)[:20] in unescape(html)


def test_a_question_page_shows_the_worked_answer_live_from_its_calculator(client, content):
    html = client.get("/questions/users-per-gpu/").content.decode()
    assert "2 × 40 layers × 8 KV heads × 128 dims × 2 bytes = 163,840 bytes = 160 KiB per token" in html
    assert '<script type="application/json" id="chart-data">[{"data":' in html
    assert 'id="chart-0"' in html


def test_open_in_calculator_carries_the_question_values(client, content):
    q = Question.objects.get(slug="batching-throughput")
    html = client.get(q.get_absolute_url()).content.decode()
    link = re.search(r'<a class="button" href="([^"]+)">Open in calculator', html).group(1)
    assert link.startswith("/calculators/batching/?")
    assert "bytes_per_param=1" in unescape(link)
    opened = client.get(unescape(link)).content.decode()
    assert "766 tokens/s" in opened


def test_previous_and_next_stay_inside_the_bank(client, content):
    first = client.get("/questions/request-lifecycle/").content.decode()
    assert 'rel="prev"' not in first
    assert '<a rel="next" href="/questions/users-per-gpu/">' in first
    last = client.get("/questions/decode-memory-bound/").content.decode()
    assert '<a rel="prev" href="/questions/serving-health-metrics/">' in last
    assert 'rel="next"' not in last


def test_glossary_terms_are_linked_once_each_in_the_question_text(client, content):
    q = Question.objects.get(slug="users-per-gpu")
    html = client.get(q.get_absolute_url()).content.decode()
    body = html[html.index('<div class="asked">') : html.index('<section class="worked"')]
    for term in q.terms.all():
        assert body.count(f'class="term" href="/glossary/{term.slug}/"') == 1, term.slug


def test_a_question_page_lists_its_terms(client, content):
    q = Question.objects.get(slug="request-lifecycle")
    html = client.get(q.get_absolute_url()).content.decode()
    section = html[html.index('id="terms-heading"') :]
    for term in q.terms.all():
        assert f'<a href="/glossary/{term.slug}/">{term.term}</a>' in unescape(section)


def test_pages_refuse_post(client, content):
    assert client.post("/").status_code == 405
    assert client.post("/questions/request-lifecycle/").status_code == 405


def test_a_question_whose_stored_values_no_longer_fit_says_so_instead_of_failing(client, content):
    Question.objects.filter(slug="users-per-gpu").update(values={"free_gib": -1})
    response = client.get("/questions/users-per-gpu/")
    assert response.status_code == 200
    html = response.content.decode()
    assert (
        "The worked answer cannot be computed from this question's stored values: free_gib: Must be at least 0.01."
        in html
    )


def test_a_question_with_an_unknown_calculator_still_renders(client, content):
    Question.objects.filter(slug="users-per-gpu").update(calculator="gone")
    response = client.get("/questions/users-per-gpu/")
    assert response.status_code == 200
    assert "There is no calculator called “gone”" in response.content.decode()
    assert "Open in calculator" not in response.content.decode()
