"""Practice: setup, one question at a time, progress, export and reset. Thin: the rules live in queue,
progress and scheduling; every input goes through a form."""

from __future__ import annotations

from datetime import UTC, datetime

from django.contrib import messages
from django.db import IntegrityError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from calculators.engine.units import count
from calculators.jsonresponse import JSONResponse, script_json
from prepsite.content import SLUG_RE
from questions.models import Bank

from . import progress, queue, scheduling
from .forms import ResetForm, ReviewForm, SetupForm
from .learners import current_learner
from .models import Learner, Review


def now() -> datetime:
    return timezone.now()


def setup_initial(learner: Learner) -> dict:
    return {
        "banks": list(learner.banks.values_list("slug", flat=True)) if learner.pk else [],
        "difficulties": list(learner.difficulties),
        "desired_retention": learner.desired_retention,
        "daily_new_limit": learner.daily_new_limit,
    }


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def setup(request: HttpRequest) -> HttpResponse:
    learner = current_learner(request)
    status = 200
    notice = ""
    if request.method == "POST":
        form = SetupForm(request.POST)
        if form.is_valid():
            learner = current_learner(request, create=True)
            data = form.cleaned_data
            learner.desired_retention = data["desired_retention"]
            learner.daily_new_limit = data["daily_new_limit"]
            learner.difficulties = list(data["difficulties"])
            learner.save()
            learner.banks.set(data["banks"])
            return redirect("practice:session")
        status = 400
    else:
        initial = setup_initial(learner)
        wanted = request.GET.get("bank")
        if wanted is not None:
            # A "practise this bank" link preselects it; an unknown slug is said, not fatal.
            if SLUG_RE.match(wanted) and Bank.objects.filter(slug=wanted).exists():
                initial["banks"] = [wanted]
            else:
                notice = "There is no bank with that name; pick from the list below."
        form = SetupForm(initial=initial)
    upcoming = queue.next_question(learner, now())
    return render(
        request, "practice/setup.html", {"form": form, "learner": learner, "upcoming": upcoming, "notice": notice},
        status=status,
    )  # fmt: skip


def session_context(request: HttpRequest, learner: Learner, at: datetime) -> dict:
    upcoming = queue.next_question(learner, at)
    context = {"upcoming": upcoming, "learner": learner, "now": at}
    if upcoming.question is None:
        if upcoming.next_due:
            context["wait"] = scheduling.describe_wait(upcoming.next_due - at)
        return context
    question = upcoming.question
    card = upcoming.card.to_fsrs() if upcoming.card else scheduling.new_card(at)
    seen = Review.objects.filter(learner=learner, question=question).count() if learner.pk else 0
    context.update(
        question=question,
        buttons=[
            {"rating": r, "name": name, "key": key, "interval": scheduling.format_interval(gap)}
            for r, name, key, gap in scheduling.preview(card, at, learner.desired_retention)
        ],
        seen=seen,
        shown_at=int(at.timestamp() * 1000),
        state=scheduling.STATE_NAMES[card.state] if upcoming.card else "new",
    )
    return context


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def session(request: HttpRequest) -> HttpResponse:
    """GET: the next question. POST: rate one, then redirect to the next (POST/redirect/GET)."""
    if request.method != "POST":
        learner = current_learner(request)
        return render(request, "practice/session.html", session_context(request, learner, now()))

    form = ReviewForm(request.POST)
    at = now()
    if not form.is_valid():
        learner = current_learner(request)
        context = session_context(request, learner, at)
        context["errors"] = [f"{form.fields[name].label or name}: {' '.join(errs)}" if name != "__all__"
                             else " ".join(errs) for name, errs in form.errors.items()]  # fmt: skip
        context["typed"] = form.data.get("answer", "")[:5000]
        return render(request, "practice/session.html", context, status=400)
    data = form.cleaned_data
    learner = current_learner(request, create=True)
    duration = data["duration_ms"]
    if duration is None and data["shown_at"] is not None:
        # Without JavaScript: the time since the server showed the question.
        elapsed = int(at.timestamp() * 1000) - data["shown_at"]
        duration = elapsed if 0 <= elapsed <= 24 * 3600 * 1000 else None
    try:
        card = queue.record(learner, data["question"], data["rating"], at, seen=data["seen"], duration_ms=duration,
                            answer=data["answer"])  # fmt: skip
    except (queue.StaleRating, IntegrityError):  # IntegrityError: a simultaneous first rating created the card
        messages.info(request, "That question was already rated, so the second rating was not counted.")
    else:
        name = scheduling.RATING_NAMES[data["rating"]]
        due = scheduling.utc(card.due)
        messages.success(
            request,
            f"{data['question'].title}: {name}. Due again {scheduling.describe_wait(due - at)} "
            f"({due:%d %b %Y, %H:%M} UTC).",
        )
    return redirect("practice:session")


def bank_or_404(request: HttpRequest) -> Bank | None:
    slug = request.GET.get("bank")
    if slug is None or slug == "":
        return None
    bank = Bank.objects.filter(slug=slug).first() if SLUG_RE.match(slug) else None
    if bank is None:
        raise Http404("No bank with that name.")
    return bank


@never_cache
@require_safe
def progress_page(request: HttpRequest) -> HttpResponse:
    learner = current_learner(request)
    at = now()
    bank = bank_or_404(request)
    rows = progress.per_bank(learner, at)
    if bank is not None:
        rows = [row for row in rows if row.bank.pk == bank.pk]
    totals = {
        "due_now": sum(r.due_now for r in rows),
        "learned": sum(r.learned for r in rows),
        "reviews": sum(r.reviews for r in rows),
        "questions": sum(r.questions for r in rows),
    }
    figure = progress.chart(learner, at, bank)
    return render(
        request,
        "practice/progress.html",
        {
            "learner": learner,
            "rows": rows,
            "bank": bank,
            "banks": Bank.objects.all(),
            "totals": totals,
            "streak": progress.streak(learner, at),
            "charts_json": script_json([figure]),
            "chart_title": figure["layout"]["title"]["text"],
        },
    )


def export_name(at: datetime, ext: str) -> str:
    return f"prepsite-progress-{at.astimezone(UTC):%Y%m%d-%H%M%S}.{ext}"


@never_cache
@require_safe
def export_json(request: HttpRequest) -> HttpResponse:
    at = now()
    response = JSONResponse(progress.export_data(current_learner(request), at))
    response["Content-Disposition"] = f'attachment; filename="{export_name(at, "json")}"'
    return response


@never_cache
@require_safe
def export_csv(request: HttpRequest) -> HttpResponse:
    at = now()
    body = progress.export_csv(progress.export_data(current_learner(request), at))
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{export_name(at, "csv")}"'
    return response


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def reset(request: HttpRequest) -> HttpResponse:
    learner = current_learner(request)
    if request.method == "POST":
        form = ResetForm(request.POST)
        if form.is_valid():
            cards, reviews = queue.reset(learner)
            messages.success(
                request, f"Progress reset: {count(cards, 'question')} and {count(reviews, 'review')} deleted."
            )
            return redirect("practice:progress")
        status = 400
    else:
        form, status = ResetForm(), 200
    counts = {
        "cards": progress.learner_cards(learner).count(),
        "reviews": progress.learner_reviews(learner).count(),
    }
    return render(request, "practice/reset.html", {"form": form, "counts": counts, "learner": learner}, status=status)
