"""``{% share_meta %}``: description, canonical link, Open Graph and Twitter card tags for a page."""

from __future__ import annotations

from django import template

from questions.sharing import SITE_DESCRIPTION, SITE_NAME, share_description

register = template.Library()


@register.inclusion_tag("share_meta.html", takes_context=True)
def share_meta(
    context,
    title: str = "",
    description: str = "",
    kind: str = "website",
    url: str | None = None,
    canonical: str | None = None,
    noindex: bool = False,
):
    """Tags for the page being rendered.

    ``url`` is the address a pasted link stands for (the path and any query that matters, such as
    ``?view=interviewer`` or a calculator's values); it defaults to the path alone. ``canonical`` is the
    one address search engines should index for this content; it defaults to ``url``.
    """
    request = context["request"]
    url = request.build_absolute_uri(url or request.path)
    return {
        "site_name": SITE_NAME,
        "title": title or SITE_NAME,
        "description": share_description(description) or SITE_DESCRIPTION,
        "kind": kind,
        "url": url,
        "canonical": request.build_absolute_uri(canonical) if canonical else url,
        "noindex": noindex,
    }
