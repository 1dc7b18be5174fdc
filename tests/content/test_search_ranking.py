"""Search ranking and highlighting, on hand-made documents."""

from questions.search import Document, highlight, query_terms, search

DOCS = [
    Document("question", "/questions/a/", "Why decode is memory-bound", "Bank",
             body=[("Decode reads the weights.", 1)]),
    Document(
        "term", "/glossary/time-to-first-token/", "Time to first token", "Glossary", names=["TTFT"],
        body=[("How long until the first token arrives; mostly prefill.", 2)],
    ),
    Document("question", "/questions/b/", "Prefill and time to first token", "Bank", body=[("TTFT is prefill.", 1)]),
]  # fmt: skip


def test_query_terms_drop_stop_words_and_repeats():
    assert query_terms("What is the KV cache, and the KV cache size?") == ["kv", "cache", "size"]


def test_an_alias_ranks_its_term_first():
    hits = search(DOCS, "ttft")
    assert [h.document.url for h in hits] == ["/glossary/time-to-first-token/", "/questions/b/"]


def test_documents_matching_every_word_rank_above_partial_matches():
    hits = search(DOCS, "decode weights")
    assert hits[0].document.url == "/questions/a/"
    assert hits[0].matched == 2


def test_words_match_at_word_starts_so_prefixes_find_longer_words():
    assert [h.document.url for h in search(DOCS, "memory")] == ["/questions/a/"]
    assert search(DOCS, "emory") == []


def test_matches_are_highlighted_and_the_rest_escaped():
    assert highlight("<b>Prefill</b> & prefilling", ["prefill"]) == (
        "&lt;b&gt;<mark>Prefill</mark>&lt;/b&gt; &amp; <mark>prefilling</mark>"
    )


def test_an_empty_or_stop_word_query_finds_nothing():
    assert search(DOCS, "") == []
    assert search(DOCS, "the of and") == []


def test_a_snippet_starts_at_the_sentence_that_matches():
    long = Document(
        "term", "/glossary/x/", "X", "Glossary",
        body=[("Words before it fill the space here and there. " * 4 + "The first token waits for prefill.", 1)],
    )  # fmt: skip
    hit = search([long], "prefill")[0]
    assert hit.snippet_html == "… The first token waits for <mark>prefill</mark>."
