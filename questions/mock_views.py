"""The mock interview: set up, answer each question against the clock, score it, read the summary.

Plain forms and full-page POSTs (redirected to a GET), so it works without
JavaScript; mock-timer.js only animates the countdown. The state lives in the
visitor's session (see questions/mock.py for its shape and rules).
"""

from __future__ import annotations

import time

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from calculators.engine import registry
from glossary.models import Term

from . import mock
from .forms import MockSetupForm
from .models import Difficulty, Question

SESSION_KEY = "mock"


def now() -> float:
    """The server's clock; tests replace it."""
    return time.time()


def _state(request: HttpRequest) -> dict | None:
    state = request.session.get(SESSION_KEY)
    return state if mock.is_valid(state) else None


def _save(request: HttpRequest, state: dict) -> None:
    request.session[SESSION_KEY] = state  # assigning marks the session as changed


def _step_url(number: int) -> str:
    return reverse("questions:mock-step", args=[number])


def _next_url(state: dict) -> str:
    number = mock.current(state)
    return _step_url(number) if number else reverse("questions:mock-summary")


def _problem(request: HttpRequest, message: str, status: int, state: dict | None) -> HttpResponse:
    """A refused request: what went wrong and where to go instead."""
    context = {"message": message, "state": state, "next_url": _next_url(state) if state else None,
               "current": mock.current(state) if state else None}  # fmt: skip
    return render(request, "questions/mock_problem.html", context, status=status)


def _no_mock(request: HttpRequest) -> HttpResponse:
    return _problem(request, "There is no mock interview in progress in this browser: start one below.", 404, None)


def _initial(query, bank_slugs: list[str]) -> dict:
    """A setup link such as /mock/?banks=inference&count=3 fills the form in; anything unusable is left out."""
    initial = {"banks": [s for s in query.getlist("banks") if s in bank_slugs] or bank_slugs}
    difficulties = [d for d in query.getlist("difficulties") if d in Difficulty.values]
    if difficulties:
        initial["difficulties"] = difficulties
    for name, low, high in (("count", mock.MIN_COUNT, mock.MAX_COUNT), ("minutes", mock.MIN_MINUTES, mock.MAX_MINUTES)):
        value = query.get(name, "")
        if value.isascii() and value.isdigit() and low <= int(value) <= high:
            initial[name] = int(value)
    return initial


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    status = 200
    if request.method == "POST":
        form = MockSetupForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            seed = mock.new_seed()
            drawn = mock.draw(form.drawable(), data["count"], seed)
            setup = {"banks": data["banks"], "difficulties": data["difficulties"], "count": data["count"],
                     "minutes": data["minutes"]}  # fmt: skip
            _save(request, mock.start(drawn, data["minutes"], seed, setup))
            return HttpResponseRedirect(_step_url(1), status=303)
        status = 400
    else:
        form = MockSetupForm()
        form.initial = _initial(request.GET, [slug for slug, _ in form.fields["banks"].choices])
    state = _state(request)
    context = {
        "form": form,
        "difficulties": Difficulty.choices,
        "state": state,
        "current": mock.current(state) if state else None,
        "limits": {
            "min_count": mock.MIN_COUNT,
            "max_count": mock.MAX_COUNT,
            "min_minutes": mock.MIN_MINUTES,
            "max_minutes": mock.MAX_MINUTES,
        },
    }
    return render(request, "questions/mock_setup.html", context, status=status)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def step(request: HttpRequest, number: int) -> HttpResponse:
    state = _state(request)
    if state is None:
        return _no_mock(request)
    try:
        current = mock.step_at(state, number)
    except mock.NoSuchQuestion as error:
        return _problem(request, str(error), 404, state)
    except mock.MockError as error:
        if request.method != "POST":  # scoring a question already scored is refused by _act
            return _problem(request, str(error), 400, state)
    if request.method == "POST":
        return _act(request, state, number)
    if not mock.scored(current):
        mock.open_step(state, number, now())
        _save(request, state)
    total = len(state["steps"])
    question = Question.objects.select_related("bank").filter(slug=current["slug"]).first()
    remaining = mock.remaining(state, current, now())
    phase = "scored" if mock.scored(current) else "scoring" if current["stopped"] is not None else "answering"
    context = {
        "state": state,
        "step": current,
        "number": number,
        "total": total,
        "question": question,
        "phase": phase,
        "limit": state["limit"],
        "limit_clock": mock.clock(state["limit"]),
        "remaining": round(remaining),
        "remaining_clock": mock.clock(abs(remaining)),
        "taken": mock.seconds_taken(current),
        "taken_clock": mock.clock(mock.seconds_taken(current)),
        "overtime": remaining < 0,
        "points": list(enumerate(question.strong_answer)) if question else [],
        "covered": set(current["covered"] or []),
        "is_last": number == total,
        "next_url": _next_url(state),
        "current_number": mock.current(state),
    }
    return render(request, "questions/mock_step.html", context)


def _act(request: HttpRequest, state: dict, number: int) -> HttpResponse:
    action = request.POST.get("action", "")
    try:
        if action == "stop":
            mock.stop_clock(state, number, now())
            target = _step_url(number)
        elif action == "score":
            notes = request.POST.get("notes", "")
            mock.score(state, number, request.POST.getlist("covered"), notes, now())
            target = _next_url(state)
        elif action == "end":
            mock.end(state)
            target = reverse("questions:mock-summary")
        else:
            raise mock.MockError(f"“{action[:40]}” is not something a mock interview can do: stop, score or end.")
    except mock.MockError as error:
        return _problem(request, str(error), 400, state)
    _save(request, state)
    return HttpResponseRedirect(target, status=303)


@never_cache
@require_http_methods(["GET", "HEAD"])
def summary(request: HttpRequest) -> HttpResponse:
    state = _state(request)
    if state is None:
        return _no_mock(request)
    result = mock.summarise(state)
    questions = {
        q.slug: q for q in Question.objects.select_related("bank").filter(slug__in=[r.slug for r in result.results])
    }
    terms = {t.slug: t for t in Term.objects.filter(slug__in={s for r in result.results for s in r.terms})}
    rows = [
        {"result": r, "question": questions.get(r.slug), "taken": mock.clock(r.seconds), "over": mock.clock(r.over_by)}
        for r in result.results
    ]
    weak = []
    for r in result.weak:
        question = questions.get(r.slug)
        calculator = registry.get(question.calculator) if question else None
        weak.append(
            {
                "result": r,
                "question": question,
                "calculator": calculator,
                "calculator_url": question.calculator_url() if calculator else None,
                "terms": [terms[s] for s in r.terms if s in terms],
                "missed": [question.strong_answer[i] for i in r.missed if i < len(question.strong_answer)]
                if question
                else [],
            }
        )
    context = {
        "state": state,
        "summary": result,
        "percent": round(100 * result.fraction),
        "rows": rows,
        "weak": weak,
        "weak_terms": [(terms[w.slug], w) for w in result.weak_terms if w.slug in terms],
        "weak_below": round(100 * mock.WEAK_BELOW),
        "limit_clock": mock.clock(state["limit"]),
        "current": mock.current(state),
        "setup": state.get("setup") or {},
    }
    return render(request, "questions/mock_summary.html", context)
