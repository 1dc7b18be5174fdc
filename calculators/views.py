"""One calculator page serves three readers: a browser (full page), htmx (the
results fragment) and programs (JSON). All three go through the same form,
after ``gpu``/``model`` presets have filled what the query leaves out."""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_safe

from .engine import presets as engine_presets
from .engine import registry
from .engine.spec import Calculator
from .forms import bind, fallback_values, valid_values
from .jsonresponse import JSONResponse, script_json
from .models import GpuPreset, ModelPreset
from .preset_query import LABELS, choose, picker_data, picker_names, pickers


def _calculator(slug: str) -> Calculator:
    calculator = registry.get(slug)
    if calculator is None:
        raise Http404(f"There is no calculator called “{slug}”.")
    return calculator


def _is_htmx(request: HttpRequest) -> bool:
    """An htmx swap wants the fragment; htmx restoring history wants the whole page."""
    return request.headers.get("HX-Request") == "true" and request.headers.get("HX-History-Restore-Request") != "true"


def _bind(calculator: Calculator, query, *, need_form: bool = True):
    """Presets chosen, the form (None when not needed and all is valid), the valid values or None, the errors."""
    chosen = choose(calculator, query)
    if not need_form and not chosen.errors:
        values = valid_values(calculator, query, chosen.values)
        if values is not None:
            return chosen, None, values, {}
    form = bind(calculator, query, chosen.values)
    valid = form.is_valid() and not chosen.errors
    errors = {**chosen.errors, **{name: list(messages) for name, messages in form.errors.items()}}
    return chosen, form, form.cleaned_data if valid else None, errors


def _applied(request: HttpRequest, calculator: Calculator) -> HttpResponseRedirect:
    """The no-JavaScript "Apply presets" button: drop the values the presets determine, so the presets fill
    them, and keep everything else. The address it leads to is the shareable one."""
    chosen = choose(calculator, {k: v for k, v in request.GET.items() if k in ("gpu", "model")})
    drop = {"apply", *chosen.filled_names(calculator)}
    kept = [(k, v) for k, v in request.GET.items() if k not in drop and (v or k not in ("gpu", "model"))]
    return HttpResponseRedirect(request.path + ("?" + urlencode(kept) if kept else ""))


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    return render(request, "calculators/index.html", {"calculators": registry.all_calculators()})


@require_safe
def detail(request: HttpRequest, slug: str) -> HttpResponse:
    calculator = _calculator(slug)
    htmx = _is_htmx(request)
    if "apply" in request.GET and not htmx:
        return _applied(request, calculator)
    chosen, form, values, errors = _bind(calculator, request.GET, need_form=not htmx)
    valid = values is not None
    status = 200 if valid else 400
    if htmx:
        if valid:
            result = calculator.run(values, measured=chosen.measured)
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
            slots = picker_names(calculator) + [f.name for f in form]
            context = {"slots": [(name, errors.get(name, [])) for name in slots], "errors": _labelled(form, errors)}
            response = render(request, "calculators/detail.html#errors", context, status=status)
    else:
        values = values if valid else fallback_values(form)
        result = calculator.run(values, measured=chosen.measured)
        shown = pickers(calculator, chosen)
        options = {p["name"]: p["options"] for p in shown}
        context = {
            "calculator": calculator,
            "form": form,
            "fields": [(p, form[p.name]) for p in calculator.params],
            "pickers": shown,
            "preset_json": script_json(picker_data(calculator, options)) if shown else "",
            "result": result,
            "charts_json": script_json(result.charts),
            "error_labels": [form.fields[name].label for name in form.errors],
            "preset_errors": [LABELS[name] for name in chosen.errors],
            "chart_titles": [chart["layout"]["title"]["text"] for chart in result.charts],
            "calculators": registry.all_calculators(),
        }
        response = render(request, "calculators/detail.html", context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response


def _labelled(form, errors: dict[str, list[str]]) -> list[tuple[str, list[str]]]:
    return [(form.fields[name].label if name in form.fields else LABELS[name], msgs) for name, msgs in errors.items()]


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
                "preset_inputs": engine_presets.fields_for(c),
            }
            for c in registry.all_calculators()
        ]
    )


@require_safe
def api_presets(request: HttpRequest) -> JSONResponse:
    """Every GPU and model preset with its figures and sources: the values gpu= and model= stand for."""
    return JSONResponse(
        {
            "gpus": [
                {
                    "slug": g.slug,
                    "name": g.name,
                    "peak_tflops": g.peak_tflops,
                    "bandwidth_tbs": g.bandwidth_tbs,
                    "memory_gb": g.memory_gb,
                    "measured": bool(g.measurements),
                    "notes": g.notes,
                }
                for g in GpuPreset.objects.all()
            ],
            "models": [
                {
                    "slug": m.slug,
                    "name": m.name,
                    "params_b": m.params_b,
                    "active_params_b": m.active_params_b,
                    "layers": m.layers,
                    "attention_heads": m.attention_heads,
                    "kv_heads": m.kv_heads,
                    "head_dim": m.head_dim,
                    "kv_bytes_per_token": engine_presets.kv_bytes_per_token(m.as_engine_dict()),
                    "notes": m.notes,
                }
                for m in ModelPreset.objects.all()
            ],
        }
    )


@require_safe
def api_detail(request: HttpRequest, slug: str) -> JSONResponse:
    calculator = registry.get(slug)
    if calculator is None:
        known = ", ".join(c.slug for c in registry.all_calculators())
        return JSONResponse(
            {"errors": {"slug": [f"There is no calculator called “{slug}”. Known: {known}."]}}, status=404
        )
    chosen, _, values, errors = _bind(calculator, request.GET, need_form=False)
    if values is None:
        return JSONResponse({"errors": errors}, status=400)
    body = calculator.run(values, measured=chosen.measured).as_json()
    return JSONResponse({**body, "presets": chosen.echo()})
