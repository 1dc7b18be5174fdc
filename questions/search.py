"""Search over questions and glossary terms: whole-word prefix matching, weighted by field, highlighted.

The corpus is small (tens of questions, under a hundred terms), so ranking runs
over plain text in Python and behaves the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

STOP_WORDS = {"a", "an", "and", "the", "of", "to", "in", "is", "it", "on", "for", "what", "how", "why", "does", "do"}
MAX_TERMS = 8
SNIPPET_CHARS = 180


@dataclass
class Document:
    kind: str  # "question" or "term"
    url: str
    title: str
    context: str  # bank and difficulty, or "Glossary"
    names: list[str] = field(default_factory=list)  # aliases: exact hits here rank highest
    body: list[tuple[str, float]] = field(default_factory=list)  # (plain text, weight)


@dataclass
class Hit:
    document: Document
    score: float
    matched: int
    title_html: str
    snippet_html: str


def query_terms(query: str) -> list[str]:
    words = re.findall(r"[\w][\w.+/'-]*", query.casefold())
    terms = [w.strip(".'-") for w in words if w not in STOP_WORDS]
    unique = list(dict.fromkeys(t for t in terms if t))
    return unique[:MAX_TERMS]


def word_pattern(term: str) -> re.Pattern[str]:
    """The term at the start of a word, so "batch" finds "batching" but not "rebatch"."""
    return re.compile(rf"(?<![\w]){re.escape(term)}", re.IGNORECASE)


def score_document(doc: Document, terms: list[str], phrase: str) -> tuple[float, int]:
    score = 0.0
    matched = 0
    title = doc.title.casefold()
    names = [n.casefold() for n in doc.names]
    for term in terms:
        pattern = word_pattern(term)
        term_score = 0.0
        if term in names or title == term:
            term_score += 20
        if pattern.search(doc.title):
            term_score += 6
        if any(pattern.search(n) for n in doc.names):
            term_score += 6
        for text, weight in doc.body:
            term_score += weight * min(len(pattern.findall(text)), 3)
        if term_score:
            matched += 1
            score += term_score
    if phrase == title or phrase in names:
        score += 40  # the query names this document exactly
    elif len(terms) > 1 and phrase in title:
        score += 10
    return score, matched


def highlight(text: str, terms: list[str]) -> str:
    """Escaped text with every matching word start wrapped in <mark>."""
    if not terms:
        return html.escape(text)
    pattern = re.compile("|".join(rf"(?<![\w]){re.escape(t)}[\w-]*" for t in sorted(terms, key=len, reverse=True)),
                         re.IGNORECASE)  # fmt: skip
    out, position = [], 0
    for match in pattern.finditer(text):
        out.append(html.escape(text[position : match.start()]))
        out.append(f"<mark>{html.escape(match.group(0))}</mark>")
        position = match.end()
    out.append(html.escape(text[position:]))
    return "".join(out)


def snippet(doc: Document, terms: list[str]) -> str:
    """The stretch of body text around the first match, highlighted."""
    texts = [text for text, _ in doc.body if text]
    if not texts:
        return ""
    for text in texts:
        starts = [m.start() for t in terms for m in [word_pattern(t).search(text)] if m]
        if starts:
            first = min(starts)
            begin = max(0, first - SNIPPET_CHARS // 2)
            if begin:
                # Start at the matching sentence when it starts close enough, else at a word.
                sentence = text.rfind(". ", begin, first)
                space = text.find(" ", begin)
                begin = sentence + 2 if sentence >= 0 else (space + 1 if 0 <= space < first else begin)
            end = min(len(text), begin + SNIPPET_CHARS)
            if end < len(text):
                space = text.rfind(" ", begin, end)
                end = space if space > first else end
            piece = text[begin:end]
            return ("… " if begin else "") + highlight(piece, terms) + (" …" if end < len(text) else "")
    text = texts[0]
    return html.escape(text[:SNIPPET_CHARS]) + (" …" if len(text) > SNIPPET_CHARS else "")


def search(documents: list[Document], query: str, limit: int = 50) -> list[Hit]:
    terms = query_terms(query)
    if not terms:
        return []
    phrase = " ".join(terms)
    hits = []
    for doc in documents:
        score, matched = score_document(doc, terms, phrase)
        if matched:
            hits.append(Hit(doc, score, matched, highlight(doc.title, terms), snippet(doc, terms)))
    # Documents matching every word first, then by score; ties keep the site's order.
    hits.sort(key=lambda h: (-h.matched, -h.score))
    return hits[:limit]
