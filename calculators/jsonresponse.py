"""JSON responses through orjson: fast, and NaN or infinity become null, never a bare NaN."""

from __future__ import annotations

import orjson
from django.http import HttpResponse

OPTIONS = orjson.OPT_SERIALIZE_NUMPY | orjson.OPT_NON_STR_KEYS


def script_json(data) -> str:
    """JSON safe to place inside <script type="application/json">: no "<" can end the element."""
    return orjson.dumps(data, option=OPTIONS).decode().replace("<", "\\u003c")


class JSONResponse(HttpResponse):
    def __init__(self, data, status: int = 200):
        super().__init__(orjson.dumps(data, option=OPTIONS), status=status, content_type="application/json")
