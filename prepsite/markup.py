"""The one way text written by people becomes HTML on this site.

``render_markdown`` turns Markdown into HTML and then sanitises it with nh3, so a
``<script>``, an ``onerror=`` attribute or a ``javascript:`` link never reaches a
page, whatever is pasted into a content file or the admin. Rendering costs far
more than reading a stored string, so models render on save and keep the HTML.

``Linker`` adds glossary links to already-safe HTML: the first occurrence of
each term, only in plain text (never inside a link, code or a heading), so a
page reads naturally and no link lands inside another.
"""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass

import markdown
import nh3

ALLOWED_TAGS = {
    "p", "br", "hr", "em", "strong", "b", "i", "code", "pre", "kbd", "sub", "sup", "blockquote",
    "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "mark", "del", "abbr",
}  # fmt: skip
ALLOWED_ATTRIBUTES = {"a": {"href", "title"}, "abbr": {"title"}, "th": {"align"}, "td": {"align"}}
URL_SCHEMES = {"http", "https", "mailto"}


_local = threading.local()


def _converter() -> markdown.Markdown:
    # Building a Markdown instance costs more than converting a paragraph: keep one per thread.
    converter = getattr(_local, "converter", None)
    if converter is None:
        converter = _local.converter = markdown.Markdown(extensions=["tables", "sane_lists"], output_format="html")
    return converter


def render_markdown(text: str) -> str:
    """Markdown → sanitised HTML. Raw HTML in the source is escaped or removed, never trusted."""
    if not text:
        return ""
    rendered = _converter().reset().convert(text)
    return nh3.clean(
        rendered,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="noopener noreferrer",
        strip_comments=True,
    )


def render_inline(text: str) -> str:
    """One line of Markdown without its paragraph wrapper (titles, takeaways)."""
    rendered = render_markdown(text)
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        return rendered[3:-4]
    return rendered


def plain_text(html_text: str) -> str:
    """The words of some HTML, for search and descriptions."""
    text = nh3.clean(html_text, tags=set())
    return re.sub(r"\s+", " ", html.unescape(text)).strip()


@dataclass(frozen=True)
class Link:
    """One glossary entry to link: the phrases that name it and where they point."""

    key: str
    phrases: tuple[str, ...]
    url: str
    title: str


# A tag, allowing '>' inside quoted attribute values (sanitised output may contain them).
TAG_RE = re.compile(r"""<(?:[^>"']|"[^"]*"|'[^']*')*>""")
NO_LINK_INSIDE = {"a", "code", "pre", "kbd", "h1", "h2", "h3", "h4", "h5", "h6", "mark", "abbr"}


def phrase_pattern(links: Iterable[Link]) -> tuple[re.Pattern[str] | None, dict[str, Link]]:
    """One regex for every phrase, longest first, so "continuous batching" wins over "batching"."""
    by_phrase: dict[str, Link] = {}
    for link in links:
        for phrase in link.phrases:
            phrase = phrase.strip()
            if len(phrase) >= 2:
                by_phrase.setdefault(phrase.casefold(), link)
    if not by_phrase:
        return None, {}
    alternatives = sorted(by_phrase, key=len, reverse=True)
    body = "|".join(re.escape(p).replace(r"\ ", r"[\s\u00a0]+") for p in alternatives)
    # Whole words only; a plural "s"/"es" still counts as the term.
    pattern = re.compile(rf"(?<![\w-])({body})(?:e?s)?(?![\w-])", re.IGNORECASE)
    return pattern, by_phrase


class Linker:
    """Links each term once across several pieces of HTML on the same page."""

    def __init__(self, links: Iterable[Link], *, skip: Iterable[str] = ()):
        self.pattern, self.by_phrase = phrase_pattern(links)
        self.seen: set[str] = set(skip)

    def __call__(self, html_text: str) -> str:
        if self.pattern is None or not html_text:
            return html_text
        out: list[str] = []
        depth = 0  # how many NO_LINK_INSIDE elements we are inside
        position = 0
        for match in TAG_RE.finditer(html_text):
            out.append(
                self._link_text(html_text[position : match.start()])
                if depth == 0
                else html_text[position : match.start()]
            )
            tag = match.group(0)
            name = re.match(r"</?\s*([a-zA-Z0-9]+)", tag)
            if name and name.group(1).lower() in NO_LINK_INSIDE and not tag.endswith("/>"):
                depth += -1 if tag.startswith("</") else 1
                depth = max(depth, 0)
            out.append(tag)
            position = match.end()
        tail = html_text[position:]
        out.append(self._link_text(tail) if depth == 0 else tail)
        return "".join(out)

    def _link_text(self, text: str) -> str:
        if not text.strip():
            return text

        def replace(match: re.Match[str]) -> str:
            phrase = re.sub(r"[\s\u00a0]+", " ", match.group(1)).casefold()
            link = self.by_phrase.get(phrase)
            if link is None or link.key in self.seen:
                return match.group(0)
            self.seen.add(link.key)
            return (
                f'<a class="term" href="{html.escape(link.url)}" title="{html.escape(link.title)}">{match.group(0)}</a>'
            )

        return self.pattern.sub(replace, text)
