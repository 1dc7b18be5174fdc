"""A question's two views (candidate and interviewer), the tags that make a pasted link unfold, and Copy link."""

import re
from html import unescape
from html.parser import HTMLParser

import pytest

from glossary.models import Term
from prepsite.markup import plain_text
from questions.models import Bank, Question
from questions.sharing import SITE_DESCRIPTION, share_description


class Head(HTMLParser):
    """The <meta> and <link rel=canonical> tags of a page, by name or property."""

    def __init__(self):
        super().__init__()
        self.meta: dict[str, str] = {}
        self.canonical: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and ("property" in attrs or "name" in attrs):
            self.meta[attrs.get("property") or attrs["name"]] = attrs.get("content")
        if tag == "link" and attrs.get("rel") == "canonical":
            self.canonical.append(attrs["href"])


def head(html: str) -> Head:
    parser = Head()
    parser.feed(html)
    return parser


def between(html: str, start: str, end: str) -> str:
    return html[html.index(start) : html.index(end, html.index(start))]


@pytest.fixture
def q(content):
    return Question.objects.get(slug="users-per-gpu")


def test_the_candidate_view_keeps_the_answer_behind_show_answer_and_leaves_the_interviewer_notes_out(client, q):
    response = client.get("/questions/users-per-gpu/")
    html = unescape(response.content.decode())
    assert response.status_code == 200
    details = between(html, '<details class="answer" id="answer">', "</details>")
    assert details.startswith('<details class="answer" id="answer">\n  <summary>Show answer</summary>')
    assert '<h2 id="answer-heading">Answer</h2>' in details
    assert "9 GiB ÷ 0.625 GiB per user = 14.4, so 14 users" in details
    assert "2 × 40 layers × 8 KV heads × 128 dims × 2 bytes = 163,840 bytes = 160 KiB per token" in details
    for item in q.strong_answer + q.red_flags + q.follow_ups:
        assert item not in html
    assert "Red flags" not in html and "What a strong answer covers" not in html
    assert 'The <a href="/questions/users-per-gpu/?view=interviewer">interviewer view</a> adds' in html


def test_the_interviewer_view_shows_everything_open_in_the_order_an_interviewer_uses_it(client, q):
    response = client.get("/questions/users-per-gpu/?view=interviewer")
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert "<details" not in html and "Show answer" not in html
    assert "<title>Interviewer sheet: What limits users per GPU · prepsite</title>" in html
    checklist = between(html, '<ul class="checklist">', "</ul>")
    assert re.findall(r"<li><label><input type=\"checkbox\"> (.*?)</label></li>", checklist) == q.strong_answer
    flags = between(html, '<h2 id="flags-heading">Red flags</h2>', "</section>")
    assert re.findall(r"<li>(.*?)</li>", flags) == q.red_flags
    follow_ups = between(html, '<h2 id="follow-ups-heading">Follow-up questions</h2>', "</section>")
    assert re.findall(r"<li>(.*?)</li>", follow_ups) == q.follow_ups
    assert "Divides GPU memory by the model size as if each user needed a private copy of the weights." in flags
    assert "Why is 14 a ceiling for planning rather than a number to run at?" in follow_ups
    order = [
        '<div class="asked">',
        'id="strong-heading"',
        'id="flags-heading"',
        'id="follow-ups-heading"',
        'id="answer-heading"',
        'id="worked-heading"',
        "= 163,840 bytes = 160 KiB per token",  # the worked answer, computed live
    ]
    positions = [html.index(marker) for marker in order]
    assert positions == sorted(positions)
    assert '<script type="application/json" id="chart-data">[{"data":' in html
    assert 'href="/calculators/kv-capacity/?layers=40&kv_heads=8' in html


def test_the_two_views_link_to_each_other_and_mark_the_current_one(client, content):
    candidate = client.get("/questions/users-per-gpu/").content.decode()
    interviewer = client.get("/questions/users-per-gpu/?view=interviewer").content.decode()
    assert '<a href="/questions/users-per-gpu/" aria-current="page">Candidate view</a>' in candidate
    assert '<a href="/questions/users-per-gpu/?view=interviewer">Interviewer view</a>' in candidate
    assert '<a href="/questions/users-per-gpu/">Candidate view</a>' in interviewer
    current = '<a href="/questions/users-per-gpu/?view=interviewer" aria-current="page">Interviewer view</a>'
    assert current in interviewer


def test_an_unknown_view_opens_the_candidate_view_and_says_which_views_there_are(client, q):
    response = client.get("/questions/users-per-gpu/?view=interviwer")
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert "There is no “interviwer” view of a question: showing the candidate view." in html
    assert '<details class="answer" id="answer">' in html
    assert q.red_flags[0] not in html
    assert head(html).canonical == ["http://testserver/questions/users-per-gpu/"]


def test_view_candidate_is_the_candidate_view_without_a_notice(client, content):
    html = client.get("/questions/users-per-gpu/?view=candidate").content.decode()
    assert "There is no" not in html
    assert '<details class="answer" id="answer">' in html
    assert head(html).meta["og:url"] == "http://testserver/questions/users-per-gpu/"


def test_a_pasted_question_link_unfolds_with_its_title_and_the_question_as_description(client, q):
    html = client.get("/questions/users-per-gpu/").content.decode()
    tags = head(html)
    description = tags.meta["og:description"]
    assert description.startswith("One GPU serves a 40-layer model with grouped-query attention: 8 KV heads of 128")
    assert description == share_description(plain_text(q.question_html))
    assert len(description) <= 200 and description.endswith("…") and "<" not in description
    assert tags.meta == {
        "viewport": "width=device-width, initial-scale=1",
        "description": description,
        "og:site_name": "prepsite",
        "og:type": "article",
        "og:title": "What limits users per GPU",
        "og:description": description,
        "og:url": "http://testserver/questions/users-per-gpu/",
        "twitter:card": "summary",
        "twitter:title": "What limits users per GPU",
        "twitter:description": description,
    }
    assert tags.canonical == ["http://testserver/questions/users-per-gpu/"]


def test_the_interviewer_link_unfolds_as_an_interviewer_sheet_and_is_kept_out_of_search_engines(client, content):
    tags = head(client.get("/questions/users-per-gpu/?view=interviewer").content.decode())
    assert tags.meta["og:title"] == tags.meta["twitter:title"] == "Interviewer sheet: What limits users per GPU"
    assert tags.meta["og:url"] == "http://testserver/questions/users-per-gpu/?view=interviewer"
    assert tags.canonical == ["http://testserver/questions/users-per-gpu/?view=interviewer"]
    assert tags.meta["robots"] == "noindex"
    assert "robots" not in head(client.get("/questions/users-per-gpu/").content.decode()).meta


def test_links_are_absolute_for_the_host_and_scheme_the_page_was_asked_on(client, content):
    tags = head(client.get("/questions/users-per-gpu/", HTTP_HOST="localhost").content.decode())
    assert tags.meta["og:url"] == "http://localhost/questions/users-per-gpu/"


def test_a_question_with_quotes_and_markup_gives_a_plain_escaped_description(client, q):
    Question.objects.filter(pk=q.pk).update(question_html='<p>Why does "p95" beat <em>mean</em> &amp; why?</p>')
    html = client.get("/questions/users-per-gpu/").content.decode()
    assert '<meta property="og:description" content="Why does &quot;p95&quot; beat mean &amp; why?">' in html
    assert head(html).meta["og:description"] == 'Why does "p95" beat mean & why?'


def test_every_kind_of_page_has_its_own_title_description_and_address(client, content, presets):
    bank = Bank.objects.get(slug="inference")
    tags = head(client.get("/banks/inference/").content.decode())
    assert tags.meta["og:title"] == "Inference"
    assert tags.meta["og:description"] == share_description(plain_text(bank.summary_html))
    assert tags.meta["og:url"] == "http://testserver/banks/inference/"

    tags = head(client.get("/glossary/kv-cache/").content.decode())
    assert tags.meta["og:title"] == "KV cache" and tags.meta["og:type"] == "article"
    definition = plain_text(Term.objects.get(slug="kv-cache").definition_html)
    assert tags.meta["og:description"] == share_description(definition)
    assert tags.meta["og:description"].startswith("Attention at every new position needs the keys and values")

    tags = head(client.get("/calculators/kv-capacity/?layers=40&free_gib=9").content.decode())
    assert tags.meta["og:title"] == "KV cache capacity: users per GPU"
    # The link stands for the exact values; the search engines' copy is the calculator at its defaults.
    assert tags.meta["og:url"] == "http://testserver/calculators/kv-capacity/?layers=40&free_gib=9"
    assert tags.canonical == ["http://testserver/calculators/kv-capacity/"]

    tags = head(client.get("/").content.decode())
    assert tags.meta["og:title"] == "prepsite" and tags.meta["og:description"] == SITE_DESCRIPTION
    assert tags.meta["og:type"] == "website" and tags.meta["twitter:card"] == "summary"

    tags = head(client.get("/search/?q=kv").content.decode())
    assert tags.meta["robots"] == "noindex" and tags.canonical == ["http://testserver/search/"]


@pytest.mark.parametrize("query", ["", "?view=interviewer"])
def test_both_views_offer_copy_link_and_the_link_itself_without_javascript(client, content, query):
    html = client.get(f"/questions/users-per-gpu/{query}").content.decode()
    url = f"http://testserver/questions/users-per-gpu/{query}"
    assert f'<input type="url" id="share-url" class="share-url" value="{url}" readonly>' in html
    assert '<button type="button" class="secondary" data-copy="share-url" data-status="copy-status" hidden>' in html
    assert '<span id="copy-status" class="copy-status" role="status"></span>' in html
    assert '<script src="/static/js/copy-link.js" defer></script>' in html
    assert f'<p class="print-only print-url">{url}</p>' in html


def test_the_pager_keeps_the_interviewer_on_the_interviewer_view(client, content):
    html = client.get("/questions/users-per-gpu/?view=interviewer").content.decode()
    assert '<a rel="prev" href="/questions/request-lifecycle/?view=interviewer">' in html
    assert '<a rel="next" href="/questions/batching-throughput/?view=interviewer">' in html
    candidate = client.get("/questions/users-per-gpu/").content.decode()
    assert '<a rel="next" href="/questions/batching-throughput/">' in candidate


def test_every_page_links_the_print_stylesheet_for_print_only(client, content):
    html = client.get("/questions/users-per-gpu/?view=interviewer").content.decode()
    assert '<link rel="stylesheet" href="/static/css/print.css" media="print">' in html


def test_a_short_description_is_kept_whole_with_its_spaces_tidied():
    assert share_description("  How many\n users   fit? ") == "How many users fit?"
    assert share_description("") == ""


def test_a_long_description_is_cut_at_a_word_with_an_ellipsis():
    text = "word " * 100
    cut = share_description(text, limit=50)
    assert cut == "word word word word word word word word word word…"
    assert len(cut) <= 50
    assert share_description("x" * 300, limit=50) == "x" * 49 + "…"
    assert share_description("The cache fills, then: everything stops and waits", limit=25) == "The cache fills, then…"
