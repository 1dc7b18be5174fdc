"""One calculator page serves three readers: a browser (full page), htmx (the
results fragment) and programs (JSON). All three go through the same form."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from .engine import registry
from .engine.spec import Calculator
from .forms import bind, fallback_values
from .jsonresponse import JSONResponse, script_json


def _calculator(slug: str) -> Calculator:
    calculator = registry.get(slug)
    if calculator is None:
        raise Http404(f"There is no calculator called “{slug}”.")
    return calculator


def _is_htmx(request: HttpRequest) -> bool:
    """An htmx swap wants the fragment; htmx restoring history wants the whole page."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "calculators/index.html", {"calculators": registry.all_calculators()})


@require_safe
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    calculator = _calculator(slug)
    form = bind(calculator, request.GET)
    valid = form.is_valid()
    status = 200 if valid else 400
    if _is_htmx(request):
        if valid:
            result = calculator.run(form.cleaned_data)
            context = {
                "calculator": calculator,
                "result": result,
                "charts_json": script_json(result.charts),
                "htmx": True,
            }
            response = render(request, "calculators/detail.html#results", context, status=status)
        else:
            # Only the error messages travel (out of band, beside each field);
            # the results already on the page stay as the last good answer.
            response = render(request, "calculators/detail.html#errors", {"form": form}, status=status)
    else:
        values = form.cleaned_data if valid else fallback_values(form)
        result = calculator.run(values)
        context = {
            "calculator": calculator,
            "form": form,
            "fields": [(p, form[p.name]) for p in calculator.params],
            "result": result,
            "charts_json": script_json(result.charts),
            "error_labels": [form.fields[name].label for name in form.errors],
            "chart_titles": [chart["layout"]["title"]["text"] for chart in result.charts],
            "calculators": registry.all_calculators(),
        }
        response = render(request, "calculators/detail.html", context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


@require_safe
def api_index(request: HttpRequest) -> JSONResponse:
    return JSONResponse(
        [
            {
                "slug": c.slug,
                "title": c.title,
                "summary": c.summary,
                "url": request.build_absolute_uri(f"/calculators/{c.slug}/"),
                "inputs": [
                    {
                        "name": p.name,
                        "label": p.label,
                        "unit": p.unit,
                        "default": p.coerce(p.default),
                        "min": p.minimum,
                        "max": p.maximum,
                        "step": p.step,
                        "integer": p.integer,
                        **({"choices": [{"value": v, "label": label} for v, label in p.choices]} if p.choices else {}),
                    }
                    for p in c.params
                ],
            }
            for c in registry.all_calculators()
        ]
    )


@require_safe
def api_detail(request: HttpRequest, slug: str) -> JSONResponse:
    calculator = registry.get(slug)
    if calculator is None:
        known = ", ".join(c.slug for c in registry.all_calculators())
        return JSONResponse(
            {"errors": {"slug": [f"There is no calculator called “{slug}”. Known: {known}."]}}, status=404
        )
    form = bind(calculator, request.GET)
    if not form.is_valid():
        return JSONResponse({"errors": {name: list(messages) for name, messages in form.errors.items()}}, status=400)
    return JSONResponse(calculator.run(form.cleaned_data).as_json())
