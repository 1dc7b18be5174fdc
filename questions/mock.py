"""A mock interview's rules: drawing the questions, the clock, self-scoring and the summary.

Pure Python on plain data (no requests, no models), so the rules are tested on
their own. The state is a JSON-friendly dict, kept in the visitor's session:

    {"version": 1, "seed": 7, "limit": 300, "setup": {...}, "ended": False,
     "steps": [{"slug": ..., "title": ..., "points": 5, "terms": [...],
                "opened": 1700000000.0, "stopped": None, "covered": None, "notes": ""}, ...]}

``opened`` and ``stopped`` are the server's clock (seconds), so the time taken
is known with or without JavaScript, and a refresh neither restarts the clock
nor reshuffles the questions. Titles, point counts and terms are copied in when
the questions are drawn, so the summary still reads right if the content
changes mid-interview.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from calculators.engine.units import count as counted

VERSION = 1
MIN_COUNT, MAX_COUNT, DEFAULT_COUNT = 1, 20, 5
MIN_MINUTES, MAX_MINUTES, DEFAULT_MINUTES = 1, 30, 5
MAX_NOTES = 2000
# A question is a weak topic below this share of its strong-answer points.
WEAK_BELOW = 0.7


class MockError(ValueError):
    """A request the interview's rules refuse; the message says why, for the visitor."""


class NoSuchQuestion(MockError):
    """A question number outside the interview."""


@dataclass(frozen=True)
class Drawable:
    """What drawing and scoring need to know of a question."""

    slug: str
    title: str
    points: int
    terms: tuple[str, ...] = ()


def new_seed() -> int:
    return secrets.randbelow(2**31)


def draw(pool: Iterable[Drawable], count: int, seed: int) -> list[Drawable]:
    """``count`` different questions in random order; the same pool and seed always give the same draw."""
    ordered = sorted(pool, key=lambda q: q.slug)
    if len({q.slug for q in ordered}) != len(ordered):
        raise ValueError("the pool names a question twice")
    if not MIN_COUNT <= count <= len(ordered):
        raise MockError(f"Cannot draw {counted(count, 'question')} from {len(ordered)}.")
    return random.Random(seed).sample(ordered, count)


def start(drawn: Sequence[Drawable], minutes: int, seed: int, setup: dict | None = None) -> dict:
    if not MIN_MINUTES <= minutes <= MAX_MINUTES:
        raise MockError(f"Give each question between {MIN_MINUTES} and {MAX_MINUTES} minutes.")
    return {
        "version": VERSION,
        "seed": seed,
        "limit": minutes * 60,
        "setup": dict(setup or {}),
        "ended": False,
        "steps": [
            {"slug": q.slug, "title": q.title, "points": q.points, "terms": list(q.terms),
             "opened": None, "stopped": None, "covered": None, "notes": ""}
            for q in drawn
        ],
    }  # fmt: skip


def is_valid(state) -> bool:
    """Whether a session value is a mock interview this code can read (an older or foreign value is not)."""
    return (
        isinstance(state, dict)
        and state.get("version") == VERSION
        and isinstance(state.get("steps"), list)
        and len(state["steps"]) >= 1
        and isinstance(state.get("limit"), int)
    )


def scored(step: dict) -> bool:
    return step["covered"] is not None


def current(state: dict) -> int | None:
    """The 1-based number of the first question not yet scored; None once all are scored or the interview ended."""
    if state["ended"]:
        return None
    for number, step in enumerate(state["steps"], start=1):
        if not scored(step):
            return number
    return None


def finished(state: dict) -> bool:
    return current(state) is None


def step_at(state: dict, number: int) -> dict:
    """The question at a 1-based number that may be shown: scored already, or the current one."""
    total = len(state["steps"])
    if not 1 <= number <= total:
        questions = counted(total, "question")
        raise NoSuchQuestion(f"This mock interview has {questions}: there is no question {number}.")
    step = state["steps"][number - 1]
    if scored(step):
        return step
    now_at = current(state)
    if now_at is None:
        raise MockError(f"The interview ended before question {number}; the summary lists what was scored.")
    if number != now_at:
        raise MockError(f"Question {number} is not open yet: finish question {now_at} first.")
    return step


def open_step(state: dict, number: int, now: float) -> dict:
    """Start the clock on the current question the first time it is shown."""
    step = step_at(state, number)
    if step["opened"] is None:
        step["opened"] = now
    return step


def stop_clock(state: dict, number: int, now: float) -> dict:
    """The candidate has finished answering: the clock stops (once; later stops change nothing)."""
    step = step_at(state, number)
    if scored(step):
        raise MockError(f"Question {number} is already scored.")
    if step["opened"] is None:
        step["opened"] = now
    if step["stopped"] is None:
        step["stopped"] = now
    return step


def score(state: dict, number: int, covered: Iterable, notes: str, now: float) -> dict:
    """Record which strong-answer points the answer covered (0-based indices) and the notes; stops the clock too."""
    step = step_at(state, number)
    if scored(step):
        raise MockError(f"Question {number} is already scored.")
    points = step["points"]
    chosen = set()
    for item in covered:
        try:
            index = int(item)
        except (TypeError, ValueError):
            raise MockError(f"“{str(item)[:40]}” is not one of the points to tick.") from None
        if not 0 <= index < points:
            raise MockError(f"Question {number} has {points} points to tick: there is no point {index + 1}.")
        chosen.add(index)
    if len(notes) > MAX_NOTES:
        raise MockError(f"Keep the notes under {MAX_NOTES:,} characters (these are {len(notes):,}).")
    stop_clock(state, number, now)
    step["covered"] = sorted(chosen)
    step["notes"] = notes.strip()
    return step


def end(state: dict) -> None:
    """End early: questions not scored count as skipped."""
    state["ended"] = True


def remaining(state: dict, step: dict, now: float) -> float:
    """Seconds left on this question's clock (negative when over time)."""
    stop = step["stopped"] if step["stopped"] is not None else now
    start_at = step["opened"] if step["opened"] is not None else now
    return state["limit"] - (stop - start_at)


# ---- summary ---------------------------------------------------------------


@dataclass(frozen=True)
class QuestionResult:
    number: int
    slug: str
    title: str
    points: int
    covered: int | None  # None: not scored (skipped, or still to come)
    seconds: int | None  # None: the clock never stopped
    limit: int
    notes: str
    terms: tuple[str, ...]
    missed: tuple[int, ...] = ()  # 0-based indices of the points not covered

    @property
    def fraction(self) -> float:
        return (self.covered or 0) / self.points if self.points else 1.0

    @property
    def overtime(self) -> bool:
        return self.seconds is not None and self.seconds > self.limit

    @property
    def over_by(self) -> int:
        return max(0, (self.seconds or 0) - self.limit)


@dataclass(frozen=True)
class WeakTerm:
    slug: str
    questions: tuple[str, ...]  # slugs of the weak questions that use it, weakest first
    missed: int  # strong-answer points missed across those questions


@dataclass(frozen=True)
class Summary:
    results: list[QuestionResult]
    covered: int
    points: int
    answered: int
    skipped: int
    pending: int
    overtime: int
    weak: list[QuestionResult] = field(default_factory=list)
    weak_terms: list[WeakTerm] = field(default_factory=list)

    @property
    def fraction(self) -> float:
        return self.covered / self.points if self.points else 0.0


def seconds_taken(step: dict) -> int | None:
    if step["opened"] is None or step["stopped"] is None:
        return None
    return max(0, round(step["stopped"] - step["opened"]))


def results(state: dict) -> list[QuestionResult]:
    out = []
    for number, step in enumerate(state["steps"], start=1):
        covered = step["covered"]
        out.append(
            QuestionResult(
                number=number,
                slug=step["slug"],
                title=step["title"],
                points=step["points"],
                covered=len(covered) if covered is not None else None,
                seconds=seconds_taken(step),
                limit=state["limit"],
                notes=step["notes"],
                terms=tuple(step["terms"]),
                missed=tuple(i for i in range(step["points"]) if covered is None or i not in covered),
            )
        )
    return out


def rank_weak(scored_results: Iterable[QuestionResult], below: float = WEAK_BELOW) -> list[QuestionResult]:
    """Questions under ``below`` of their points, weakest first; at equal scores, the one most over time first."""
    weak = [r for r in scored_results if r.fraction < below]
    return sorted(weak, key=lambda r: (r.fraction, -r.over_by, r.number))


def rank_terms(weak: Sequence[QuestionResult]) -> list[WeakTerm]:
    """The glossary terms of the weak questions: those behind the most missed points first, then by name."""
    missed: dict[str, int] = {}
    used_by: dict[str, list[str]] = {}
    for result in weak:
        for term in result.terms:
            missed[term] = missed.get(term, 0) + len(result.missed)
            used_by.setdefault(term, []).append(result.slug)
    ranked = sorted(missed, key=lambda t: (-missed[t], -len(used_by[t]), t))
    return [WeakTerm(slug=t, questions=tuple(used_by[t]), missed=missed[t]) for t in ranked]


def summarise(state: dict) -> Summary:
    """Scores, times and weak topics. Unscored questions count as skipped (0 points) once the interview has
    ended, and as still to come while it runs."""
    rows = results(state)
    done = finished(state)
    answered = [r for r in rows if r.covered is not None]
    counted = rows if done else answered
    weak = rank_weak(counted)
    return Summary(
        results=rows,
        covered=sum(r.covered or 0 for r in counted),
        points=sum(r.points for r in counted),
        answered=len(answered),
        skipped=len(rows) - len(answered) if done else 0,
        pending=0 if done else len(rows) - len(answered),
        overtime=sum(r.overtime for r in rows),
        weak=weak,
        weak_terms=rank_terms(weak),
    )


def clock(seconds: float | None) -> str:
    """Seconds as m:ss (or h:mm:ss), for times taken and limits."""
    if seconds is None:
        return "–"
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
