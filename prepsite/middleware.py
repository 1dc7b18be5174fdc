"""django-csp's middleware with the site-wide policy built once, not on every response.

Building the header string costs about 0.1 ms a response, which is a tenth of a
slider update. Responses that change the policy (a view decorator, a nonce) or
that django-csp treats specially (DEBUG error pages) still go through django-csp.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import cache

from csp.middleware import HEADER, HEADER_REPORT_ONLY, CheckableLazyObject, PolicyParts
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.middleware.gzip import GZipMiddleware

PER_RESPONSE = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro",
                "_csp_exempt", "_csp_exempt_ro")  # fmt: skip


@cache
def site_policies() -> tuple[str, str, tuple[str, ...], tuple[str, ...]]:
    """The enforced and report-only headers, and their excluded path prefixes, from settings."""
    empty = PolicyParts(None, None, None, None)
    enforced = getattr(settings, "CONTENT_SECURITY_POLICY", None) or {}
    report_only = getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY", None) or {}
    return (
        build_policy(**asdict(empty)),
        build_policy(**asdict(empty), report_only=True),
        tuple(enforced.get("EXCLUDE_URL_PREFIXES", None) or ()),
        tuple(report_only.get("EXCLUDE_URL_PREFIXES", None) or ()),
    )


@receiver(setting_changed)
def forget_policies(*, setting: str, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        site_policies.cache_clear()


class CSPMiddleware(BaseCSPMiddleware):
    def process_response(self, request, response):
        special = settings.DEBUG or getattr(request, "_csp_nonce", None) is not None
        if special or any(getattr(response, name, None) is not None for name in PER_RESPONSE):
            return super().process_response(request, response)
        enforced, report_only, skip, skip_ro = site_policies()
        path = request.path_info
        if enforced and HEADER not in response and not path.startswith(skip):
            response[HEADER] = enforced
        if report_only and HEADER_REPORT_ONLY not in response and not path.startswith(skip_ro):
            response[HEADER_REPORT_ONLY] = report_only
        # As django-csp does: asking for a nonce now is an error, the header is written.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response


class PageGZipMiddleware(GZipMiddleware):
    """Compress pages and JSON, but not htmx fragments.

    A calculator page is ~23 kB of HTML (its preset table compresses ninefold);
    a slider update is ~5 kB and frequent, where compressing would cost more
    server time than the bytes are worth on a loopback or LAN hop.
    """

    def process_response(self, request, response):
        if request.headers.get("HX-Request") == "true":
            return response
        return super().process_response(request, response)
