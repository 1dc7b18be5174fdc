"""What a shared link unfolds into: a page's title, description and address, as plain text.

No request handling here; the ``share_meta`` template tag builds the tags from these.
"""

from __future__ import annotations

import re

SITE_NAME = "prepsite"
SITE_DESCRIPTION = (
    "Interview practice for AI serving infrastructure: KV cache, batching, paged attention, roofline, "
    "latency and cost, with live calculators."
)
# Link previews show about two lines; search engines cut near 160 characters.
DESCRIPTION_LIMIT = 200


def share_description(text: str, limit: int = DESCRIPTION_LIMIT) -> str:
    """Plain text cut at a word boundary to at most ``limit`` characters, with an ellipsis when cut."""
    text = re.sub(r"\s+", " ", text or "").strip()
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if text[limit - 1] != " " and space > limit // 2:  # the cut falls inside a word: drop that word
        cut = cut[:space]
    return cut.rstrip(" ,;:.-–—") + "…"
