"""Bank content files (content/banks/<bank>/_bank.yaml and NN-<question>.yaml): read and validate all, then save.

A question's values are checked against its calculator's bounds and rules, and its
``checks`` against the worked answer the calculator gives at those values, so a
file that would show the wrong numbers is refused before anything is written.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calculators.engine import registry
from calculators.engine.spec import Result
from calculators.validation import checked, flat_errors
from prepsite.content import ContentError, Fields, read_yaml, set_m2m, upsert, yaml_files

from .models import Difficulty

BANK_FIELDS = {"slug", "title", "order", "summary"}
QUESTION_FIELDS = {
    "slug", "order", "title", "difficulty", "question", "answer", "takeaway", "calculator", "values", "checks",
    "follow_ups", "strong_answer", "red_flags", "terms",
}  # fmt: skip
BANK_FILE = "_bank.yaml"


@dataclass
class QuestionRecord:
    path: Path
    slug: str
    fields: dict[str, Any]
    terms: list[str] = field(default_factory=list)
    prefix: str = ""  # where it sits in a file of many entries (an export); empty for a file of its own

    def error(self, name: str, message: str) -> ContentError:
        return ContentError(self.path, f"{self.prefix}.{name}" if self.prefix else name, message)


@dataclass
class BankRecord:
    path: Path
    slug: str
    fields: dict[str, Any]
    questions: list[QuestionRecord] = field(default_factory=list)
    prefix: str = ""

    def error(self, name: str, message: str) -> ContentError:
        return ContentError(self.path, f"{self.prefix}.{name}" if self.prefix else name, message)


def worked_text(result: Result) -> str:
    """Everything the worked answer shows, as one string to search for checks."""
    return "\n".join([*result.steps, result.conclusion, *(f"{label} {value}" for label, value in result.headlines)])


def missing_checks(calculator: str, cleaned: dict, checks: list[str]) -> list[str]:
    """The checks that the worked answer at these (already valid) values does not show."""
    if not checks:
        return []
    shown = worked_text(registry.get(calculator).run(cleaned))
    return [check for check in checks if check not in shown]


def read_question(path: Path, term_slugs: set[str]) -> QuestionRecord:
    return question_record(path, read_yaml(path), term_slugs)


def question_record(path: Path, data: dict[str, Any], term_slugs: set[str], prefix: str = "") -> QuestionRecord:
    """One question's mapping, checked against its calculator and the glossary; errors name ``prefix.field``."""
    f = Fields(path, data, QUESTION_FIELDS, prefix)
    slug = f.slug()
    difficulty = f.text("difficulty")
    if difficulty not in Difficulty.values:
        raise f.error("difficulty", f"“{difficulty}” is not one of: {', '.join(Difficulty.values)}")
    calculator = f.slug("calculator")
    values = f.mapping("values")
    cleaned, errors = checked(calculator, values)
    if cleaned is None:
        raise f.error("calculator" if "calculator" in errors else "values", " ".join(flat_errors(errors)))
    checks = f.text_list("checks")
    for check in missing_checks(calculator, cleaned, checks):
        raise f.error("checks", f"the worked answer at these values does not show “{check}”")
    terms = f.slug_list("terms")
    for term in terms:
        if term not in term_slugs:
            raise f.error("terms", f"unknown glossary term “{term}”")
    return QuestionRecord(
        path=path,
        slug=slug,
        fields={
            "order": f.integer("order", minimum=1),
            "title": f.text("title", max_length=200),
            "difficulty": difficulty,
            "question": f.text("question"),
            "answer": f.text("answer"),
            "takeaway": f.text("takeaway", max_length=300),
            "calculator": calculator,
            "values": values,
            "checks": checks,
            "follow_ups": f.text_list("follow_ups"),
            "strong_answer": f.text_list("strong_answer"),
            "red_flags": f.text_list("red_flags"),
        },
        terms=terms,
        prefix=prefix,
    )


def bank_record(path: Path, data: dict[str, Any], prefix: str = "", allowed: set[str] = BANK_FIELDS) -> BankRecord:
    f = Fields(path, data, allowed, prefix)
    return BankRecord(
        path=path,
        slug=f.slug(),
        fields={
            "title": f.text("title", max_length=200),
            "order": f.integer("order", minimum=0),
            "summary": f.text("summary", required=False),
        },
        prefix=prefix,
    )


def check_banks(banks: list[BankRecord]) -> None:
    """Bank slugs unique, question slugs unique across banks, question orders unique within a bank."""
    bank_slugs: set[str] = set()
    question_where: dict[str, QuestionRecord] = {}
    for bank in banks:
        if bank.slug in bank_slugs:
            raise bank.error("slug", f"another bank is also called “{bank.slug}”")
        bank_slugs.add(bank.slug)
        orders: dict[int, QuestionRecord] = {}
        for question in bank.questions:
            if question.slug in question_where:
                other = where(question_where[question.slug])
                raise question.error("slug", f"“{question.slug}” is also used by {other}")
            question_where[question.slug] = question
            order = question.fields["order"]
            if order in orders:
                other = orders[order].prefix or orders[order].path.name
                raise question.error("order", f"{order} is also the order of {other}")
            orders[order] = question


def where(question: QuestionRecord) -> str:
    """How an error names another question: its file, or its entry in a file of many."""
    return question.prefix or f"{question.path.parent.name}/{question.path.name}"


def read_banks(content_dir: Path, term_slugs: set[str]) -> list[BankRecord]:
    banks: list[BankRecord] = []
    banks_dir = content_dir / "banks"
    folders = sorted(p for p in banks_dir.iterdir() if p.is_dir()) if banks_dir.is_dir() else []
    for folder in folders:
        bank_path = folder / BANK_FILE
        if not bank_path.is_file():
            raise ContentError(folder, None, f"a bank folder needs a {BANK_FILE} file")
        bank = bank_record(bank_path, read_yaml(bank_path))
        bank.questions = [read_question(path, term_slugs) for path in yaml_files(folder) if path.name != BANK_FILE]
        banks.append(bank)
        check_banks(banks)
    for bank in banks:
        bank.questions.sort(key=lambda q: q.fields["order"])
    return banks


def save_banks(banks: list[BankRecord]) -> dict[str, Counter]:
    from glossary.models import Term

    from .models import Bank, Question

    counts = {"banks": Counter(), "questions": Counter()}
    terms = {term.slug: term for term in Term.objects.all()}
    for bank in banks:
        bank_row, outcome = upsert(Bank, {"slug": bank.slug}, bank.fields)
        counts["banks"][outcome] += 1
        for question in bank.questions:
            row, outcome = upsert(Question, {"slug": question.slug}, {"bank": bank_row, **question.fields})
            if set_m2m(row.terms, [terms[slug] for slug in question.terms]) and outcome == "unchanged":
                outcome = "updated"
            counts["questions"][outcome] += 1
    return counts
