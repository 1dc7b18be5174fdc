"""The admin's own pages for content: Markdown preview, export of everything, import with a dry run first.

Import is two steps. The upload is checked whole and compared with the database
(nothing written); the page lists every entry it would create or update, field
by field. The file's text waits in the session, with its digest in the confirm
form, so "Apply" writes exactly what was previewed, checked again, in one
transaction. A bad file shows the entry and field at fault and changes nothing.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from prepsite.content import ContentError
from prepsite.history import content_models
from prepsite.markup import render_inline, render_markdown

from .exchange import apply, export_text, parse, plan

MAX_UPLOAD = 5 * 1024 * 1024  # the shipped content exports to about 0.2 MB
SESSION_KEY = "instructors_import"


def _require(request: HttpRequest, *actions: str) -> None:
    needed = [f"{m._meta.app_label}.{action}_{m._meta.model_name}" for m in content_models() for action in actions]
    if not request.user.has_perms(needed):
        raise PermissionDenied


@require_POST
def preview(request: HttpRequest) -> HttpResponse:
    """The HTML a Markdown field will show: the one renderer, sanitised. For the admin's live preview."""
    _require(request, "change")
    text = request.POST.get("text", "")[:100_000]
    html = render_inline(text) if request.POST.get("inline") == "1" else render_markdown(text)
    return HttpResponse(html, content_type="text/html; charset=utf-8")


@require_GET
def export_all(request: HttpRequest) -> HttpResponse:
    _require(request, "view")
    response = HttpResponse(export_text(), content_type="application/yaml; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="prepsite-content.yaml"'
    return response


def _context(request: HttpRequest, **extra) -> dict:
    return {**admin.site.each_context(request), "title": "Import content", **extra}


@require_http_methods(["GET", "POST"])
def import_content(request: HttpRequest) -> HttpResponse:
    _require(request, "add", "change", "view")
    template = "instructors/import.html"
    if request.method == "GET":
        return TemplateResponse(request, template, _context(request))
    if "confirm" in request.POST:
        return _confirm(request, template)

    upload = request.FILES.get("file")
    if upload is None:
        return TemplateResponse(request, template, _context(request, error="Choose a file to import."), status=400)
    if upload.size > MAX_UPLOAD:
        message = f"{upload.name} is {upload.size:,} bytes; the limit is {MAX_UPLOAD:,}."
        return TemplateResponse(request, template, _context(request, error=message), status=400)
    try:
        text = upload.read().decode("utf-8")
    except UnicodeDecodeError:
        message = f"{upload.name} is not UTF-8 text: export a file with export_content or the admin and upload that."
        return TemplateResponse(request, template, _context(request, error=message), status=400)
    name = Path(upload.name).name
    try:
        changes = plan(parse(text, Path(name)))
    except ContentError as exc:
        return TemplateResponse(request, template, _context(request, error=f"Refused, nothing was written. {exc}"))
    return _show_plan(request, template, name, text, changes)


def _show_plan(request: HttpRequest, template: str, name: str, text: str, changes, warning: str = "") -> HttpResponse:
    digest = hashlib.sha256(text.encode()).hexdigest()
    request.session[SESSION_KEY] = {"name": name, "text": text, "digest": digest, "report": _report_digest(changes)}
    context = _context(request, plan=changes, name=name, digest=digest, warning=warning)
    return TemplateResponse(request, template, context)


def _report_digest(changes) -> str:
    return hashlib.sha256("\n".join(changes.report()).encode()).hexdigest()


def _confirm(request: HttpRequest, template: str) -> HttpResponse:
    pending = request.session.get(SESSION_KEY)
    if not pending or pending.get("digest") != request.POST.get("digest"):
        message = "That preview is no longer waiting (it was applied, replaced or expired): upload the file again."
        return TemplateResponse(request, template, _context(request, error=message), status=409)
    try:
        bundle = parse(pending["text"], Path(pending["name"]))  # checked again: the database may have moved on
        changes = plan(bundle)
        if _report_digest(changes) != pending.get("report"):
            warning = "The content changed since that preview, so these are the changes the file would make now."
            return _show_plan(request, template, pending["name"], pending["text"], changes, warning)
        apply(bundle, comment=f"Imported from {pending['name']} in the admin", user=request.user)
    except ContentError as exc:
        return TemplateResponse(request, template, _context(request, error=f"Refused, nothing was written. {exc}"))
    del request.session[SESSION_KEY]
    summary = "; ".join(changes.report()[: len(changes.counts())]) or "nothing in the file"
    messages.success(request, f"Imported {pending['name']}: {summary}.")
    return redirect("admin:questions_bank_changelist")
