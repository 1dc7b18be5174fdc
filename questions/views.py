"""Home, banks, questions, search and the banks API."""

from __future__ import annotations

from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from calculators.engine import registry
from calculators.jsonresponse import JSONResponse, script_json
from calculators.validation import result_or_errors
from glossary.models import Term
from prepsite.markup import Linker, plain_text

from .models import Bank, Question
from .search import Document, search

MAX_QUERY = 200


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    banks = Bank.objects.annotate(question_count=Count("questions")).prefetch_related(
        Prefetch("questions", queryset=Question.objects.order_by("order").only("slug", "title", "bank_id", "order"))
    )
    return render(
        request,
        "questions/home.html",
        {"banks": banks, "term_count": Term.objects.count(), "calculator_count": len(registry.all_calculators())},
    )


@require_safe
def bank(request: HttpRequest, slug: str) -> HttpResponse:
    bank = get_object_or_404(Bank, slug=slug)
    return render(
        request,
        "questions/bank.html",
        {"bank": bank, "questions": bank.questions.order_by("order"), "description": plain_text(bank.summary_html)},
    )


# The two views of a question, by their ?view= value; the candidate's is the default, at the bare URL.
VIEWS = {"candidate": "Candidate view", "interviewer": "Interviewer view"}


@require_safe
def question(request: HttpRequest, slug: str) -> HttpResponse:
    question = get_object_or_404(Question.objects.select_related("bank"), slug=slug)
    # A shared link that was cut short or mistyped still opens the question: in the candidate's view,
    # which gives nothing away, with a note saying which views there are.
    asked = request.GET.get("view", "candidate")
    view = asked if asked in VIEWS else "candidate"
    path = question.get_absolute_url()
    share_path = path + ("?view=interviewer" if view == "interviewer" else "")
    siblings = list(question.bank.questions.order_by("order").values_list("slug", "title"))
    index = next(i for i, (s, _) in enumerate(siblings) if s == question.slug)
    terms = list(question.terms.order_by("term"))
    link = Linker(term.link() for term in terms)
    result, worked_errors = result_or_errors(question.calculator, question.values)
    calculator = registry.get(question.calculator)
    return render(
        request,
        "questions/question.html",
        {
            "question": question,
            "bank": question.bank,
            "position": index + 1,
            "count": len(siblings),
            "previous": siblings[index - 1] if index > 0 else None,
            "next": siblings[index + 1] if index + 1 < len(siblings) else None,
            # First occurrence on the page, in reading order: the question, then the answer.
            "question_html": link(question.question_html),
            "answer_html": link(question.answer_html),
            "takeaway_html": link(question.takeaway_html),
            "terms": terms,
            "calculator": calculator,
            "result": result,
            "worked_errors": worked_errors,
            "charts_json": script_json(result.charts) if result else "[]",
            "chart_titles": [chart["layout"]["title"]["text"] for chart in result.charts] if result else [],
            "description": plain_text(question.question_html),
            "view": view,
            "interviewer": view == "interviewer",
            "unknown_view": None if asked in VIEWS else asked[:40],
            "candidate_url": path,
            "interviewer_url": path + "?view=interviewer",
            "share_path": share_path,
            "share_url": request.build_absolute_uri(share_path),
        },
    )


def documents() -> list[Document]:
    docs = []
    for q in Question.objects.select_related("bank").order_by("bank__order", "order"):
        docs.append(
            Document(
                kind="question",
                url=q.get_absolute_url(),
                title=q.title,
                context=f"{q.bank.title} · {q.get_difficulty_display()}",
                body=[
                    (plain_text(q.question_html), 3),
                    (q.takeaway, 2),
                    (plain_text(q.answer_html), 1),
                ],
            )
        )
    for t in Term.objects.order_by("term"):
        docs.append(
            Document(
                kind="term",
                url=t.get_absolute_url(),
                title=t.term,
                context="Glossary" + (f" · also {', '.join(t.aliases)}" if t.aliases else ""),
                names=list(t.aliases),
                body=[(plain_text(t.definition_html), 2), (plain_text(t.example_html), 1)],
            )
        )
    return docs


@require_safe
def search_page(request: HttpRequest) -> HttpResponse:
    query = request.GET.get("q", "").strip()[:MAX_QUERY]
    hits = search(documents(), query) if query else []
    return render(request, "questions/search.html", {"query": query, "hits": hits})


@require_safe
def api_banks(request: HttpRequest) -> JSONResponse:
    banks = Bank.objects.prefetch_related(Prefetch("questions", queryset=Question.objects.order_by("order")))
    return JSONResponse(
        [
            {
                "slug": b.slug,
                "title": b.title,
                "url": request.build_absolute_uri(b.get_absolute_url()),
                "questions": [
                    {
                        "slug": q.slug,
                        "title": q.title,
                        "difficulty": q.difficulty,
                        "url": request.build_absolute_uri(q.get_absolute_url()),
                        "calculator_url": request.build_absolute_uri(q.calculator_url()),
                    }
                    for q in b.questions.all()
                ],
            }
            for b in banks
        ]
    )
