"""Site-wide views that belong to no app."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    """Liveness for a load balancer: the process answers. Touches no database, by design."""
    return HttpResponse("ok", content_type="text/plain; charset=utf-8")
