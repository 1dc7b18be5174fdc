"""The glossary: an A–Z index with a filter, one page per term, and a JSON list."""

from __future__ import annotations

from itertools import groupby

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from calculators.engine import registry
from calculators.jsonresponse import JSONResponse
from calculators.validation import calculator_url, result_or_errors
from prepsite.markup import Linker, plain_text

from .models import Term

MAX_FILTER = 100


def matches(term: Term, needle: str) -> bool:
    return any(needle in name.casefold() for name in (term.term, *term.aliases))


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    needle = request.GET.get("q", "").strip()[:MAX_FILTER]
    terms = list(Term.objects.order_by("term"))
    shown = [t for t in terms if matches(t, needle.casefold())] if needle else terms
    groups = [(letter, list(items)) for letter, items in groupby(shown, key=lambda t: t.initial)]
    letters = sorted({t.initial for t in terms})
    return render(
        request,
        "glossary/index.html",
        {
            "groups": groups,
            "letters": letters,
            "present": {g for g, _ in groups},
            "query": needle,
            "total": len(terms),
            "shown": len(shown),
        },
    )


@require_safe
def term(request: HttpRequest, slug: str) -> HttpResponse:
    term = get_object_or_404(Term, slug=slug)
    related = list(term.related.order_by("term"))
    # Related terms are linked where the text names them; the term itself never links to its own page.
    link = Linker((t.link() for t in related), skip={term.slug})
    context = {
        "term": term,
        "definition_html": link(term.definition_html),
        "example_html": link(term.example_html),
        "related": related,
        "questions": term.questions.select_related("bank").order_by("bank__order", "order"),
        "description": plain_text(term.definition_html),  # share_meta cuts it to length
    }
    calculator = registry.get(term.calculator) if term.calculator else None
    if calculator is not None:
        context["calculator"] = calculator
        context["result"], context["worked_errors"] = result_or_errors(term.calculator, term.values)
        context["calculator_url"] = calculator_url(term.calculator, term.values)
    return render(request, "glossary/term.html", context)


@require_safe
def api_glossary(request: HttpRequest) -> JSONResponse:
    return JSONResponse(
        [
            {
                "slug": t.slug,
                "term": t.term,
                "aliases": t.aliases,
                "url": request.build_absolute_uri(t.get_absolute_url()),
            }
            for t in Term.objects.order_by("term")
        ]
    )
