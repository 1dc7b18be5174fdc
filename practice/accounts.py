"""Candidate accounts: Django's own login and logout, and a registration page with UserCreationForm.

Logging in (or registering, which logs in) merges this browser's practice progress into
the account: see ``learners.merge_on_login``, connected to ``user_logged_in``.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from .forms import RegisterForm


def safe_next(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    ok = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return target if ok else ""


@require_http_methods(["GET", "HEAD", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    status = 200
    if request.method == "POST":
        form = RegisterForm(request.POST)
        if form.is_valid():
            user = form.save()
            # Named: the first backend, the login throttle, authenticates but cannot load a user back from the session.
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(safe_next(request) or settings.LOGIN_REDIRECT_URL)
        status = 400
    else:
        form = RegisterForm()
    return render(request, "registration/register.html", {"form": form, "next": safe_next(request)}, status=status)
