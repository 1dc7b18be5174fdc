"""Markdown → sanitised HTML, and glossary auto-linking that leaves links and code alone."""

import pytest

from prepsite.markup import Link, Linker, plain_text, render_inline, render_markdown

KV = Link(key="kv-cache", phrases=("KV cache",), url="/glossary/kv-cache/", title="KV cache")
TTFT = Link(key="ttft", phrases=("Time to first token", "TTFT"), url="/glossary/time-to-first-token/", title="TTFT")
BATCHING = Link(key="batching", phrases=("batching",), url="/glossary/batching/", title="Batching")
CONTINUOUS = Link(key="cb", phrases=("continuous batching",), url="/glossary/continuous-batching/", title="CB")


def link_once(html: str, links: list[Link]) -> str:
    return Linker(links)(html)


def test_markdown_renders_paragraphs_emphasis_code_and_lists():
    html = render_markdown("Decode is **memory-bound**: see `params_b`.\n\n- one\n- two")
    assert html == (
        "<p>Decode is <strong>memory-bound</strong>: see <code>params_b</code>.</p>\n"
        "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"
    )


@pytest.mark.parametrize(
    "source, forbidden",
    [
        ("<script>alert(1)</script>", "<script"),
        ('<img src=x onerror="alert(1)">', "onerror"),
        ("[click](javascript:alert(1))", "javascript:"),
        ('<a href="javascript:alert(1)">x</a>', "javascript:"),
        ('<p onclick="steal()">hi</p>', "onclick"),
        ("<iframe src='https://evil.example'></iframe>", "<iframe"),
        ('<svg onload="alert(1)"></svg>', "onload"),
        ("<style>body{display:none}</style>", "<style"),
    ],
)
def test_markdown_never_lets_script_handlers_or_javascript_links_through(source, forbidden):
    assert forbidden not in render_markdown(source).lower()


def test_links_keep_their_href_and_get_a_safe_rel():
    html = render_markdown("[vLLM](https://docs.vllm.ai/)")
    assert html == '<p><a href="https://docs.vllm.ai/" rel="noopener noreferrer">vLLM</a></p>'


def test_inline_rendering_drops_the_paragraph_wrapper():
    assert render_inline("Prefill is *compute-bound*.") == "Prefill is <em>compute-bound</em>."


def test_plain_text_strips_tags_and_unescapes():
    assert plain_text("<p>2 &times; 40 <code>layers</code></p>\n<p>done</p>") == "2 × 40 layers done"


def test_autolink_links_only_the_first_occurrence():
    html = link_once("<p>The KV cache grows. The KV cache fills memory.</p>", [KV])
    assert html == (
        '<p>The <a class="term" href="/glossary/kv-cache/" title="KV cache">KV cache</a> grows.'
        " The KV cache fills memory.</p>"
    )


def test_autolink_never_links_inside_a_link_or_code():
    html = link_once(
        '<p><a href="https://x.example">the KV cache</a> and <code>KV cache</code>, then KV cache.</p>', [KV]
    )
    assert html == (
        '<p><a href="https://x.example">the KV cache</a> and <code>KV cache</code>, then '
        '<a class="term" href="/glossary/kv-cache/" title="KV cache">KV cache</a>.</p>'
    )


def test_autolink_leaves_pre_blocks_alone():
    html = link_once("<pre><code>KV cache</code></pre><p>x</p>", [KV])
    assert 'class="term"' not in html


def test_autolink_prefers_the_longest_phrase_and_matches_aliases_and_plurals():
    html = link_once("<p>Continuous batching beats batching. TTFTs rise.</p>", [BATCHING, CONTINUOUS, TTFT])
    assert '<a class="term" href="/glossary/continuous-batching/" title="CB">Continuous batching</a>' in html
    assert '<a class="term" href="/glossary/batching/" title="Batching">batching</a>.' in html
    assert '<a class="term" href="/glossary/time-to-first-token/" title="TTFT">TTFTs</a>' in html


def test_autolink_matches_whole_words_only():
    assert link_once("<p>prebatching and batching-aware</p>", [BATCHING]) == "<p>prebatching and batching-aware</p>"


def test_autolink_handles_attributes_containing_angle_brackets():
    html = link_once('<p><a href="/x" title="a>b">KV cache</a> KV cache</p>', [KV])
    assert html.count('class="term"') == 1
    assert html.endswith("KV cache</a></p>")


def test_one_linker_links_each_term_once_across_several_pieces():
    link = Linker([KV])
    first = link("<p>KV cache</p>")
    second = link("<p>KV cache</p>")
    assert 'class="term"' in first
    assert second == "<p>KV cache</p>"


def test_a_linker_can_skip_the_page_own_term():
    assert Linker([KV], skip={"kv-cache"})("<p>KV cache</p>") == "<p>KV cache</p>"
