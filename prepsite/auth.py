"""The login throttle's backend: django-axes's, for every authenticate() that comes with a request.

Both logins (the admin's and the candidates') pass their request, so both are
counted and locked. Calls without one (Django's test client ``login()``, a
shell) have no address to count by: axes would raise, here they pass through
to the next backend unthrottled.
"""

from __future__ import annotations

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_client_username
from django.conf import settings
from django.http import HttpResponse
from django.shortcuts import render


class LoginThrottleBackend(AxesStandaloneBackend):
    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def lockout_response(request, original_response=None, credentials=None) -> HttpResponse:
    """The page a locked-out login gets (429): why, for how long, and that nothing else is affected."""
    minutes = round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "username": get_client_username(request, credentials) or "",
        "minutes": minutes,
    }
    return render(request, "registration/locked_out.html", context, status=429)
