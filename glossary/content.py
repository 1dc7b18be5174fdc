"""Glossary content files (content/glossary/<slug>.yaml): read and validate all, then save."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from calculators.validation import calculator_value_errors, flat_errors
from prepsite.content import ContentError, Fields, read_yaml, set_m2m, upsert, yaml_files

FIELDS = {"slug", "term", "aliases", "definition", "example", "calculator", "values", "related"}


@dataclass
class TermRecord:
    path: Path
    slug: str
    fields: dict[str, Any]
    related: list[str] = field(default_factory=list)


def read_terms(content_dir: Path) -> list[TermRecord]:
    records: list[TermRecord] = []
    for path in yaml_files(content_dir / "glossary"):
        f = Fields(path, read_yaml(path), FIELDS)
        slug = f.slug()
        calculator = f.slug("calculator", required=False)
        values = f.mapping("values")
        if values and not calculator:
            raise f.error("values", "give the calculator these values belong to")
        if calculator:
            errors = calculator_value_errors(calculator, values)
            if errors:
                name = "calculator" if "calculator" in errors else "values"
                raise f.error(name, " ".join(flat_errors(errors)))
        records.append(
            TermRecord(
                path=path,
                slug=slug,
                fields={
                    "term": f.text("term", max_length=120),
                    "aliases": f.text_list("aliases"),
                    "definition": f.text("definition"),
                    "example": f.text("example", required=False),
                    "calculator": calculator,
                    "values": values,
                },
                related=f.slug_list("related"),
            )
        )
    check_terms(records)
    return records


def check_terms(records: list[TermRecord]) -> None:
    """Slugs unique, every name and alias names one term only, related terms exist."""
    slugs: dict[str, Path] = {}
    names: dict[str, str] = {}
    for record in records:
        if record.slug in slugs:
            raise ContentError(record.path, "slug", f"“{record.slug}” is also used by {slugs[record.slug].name}")
        slugs[record.slug] = record.path
    for record in records:
        for kind, name in [("term", record.fields["term"])] + [("aliases", a) for a in record.fields["aliases"]]:
            key = name.casefold()
            if key in names and names[key] != record.slug:
                raise ContentError(record.path, kind, f"“{name}” already names the term “{names[key]}”")
            names[key] = record.slug
        for other in record.related:
            if other not in slugs:
                raise ContentError(record.path, "related", f"unknown glossary term “{other}”")
            if other == record.slug:
                raise ContentError(record.path, "related", "a term cannot be related to itself")


def save_terms(records: list[TermRecord]) -> Counter:
    from .models import Term

    counts: Counter = Counter()
    rows = {}
    outcomes = {}
    for record in records:
        rows[record.slug], outcomes[record.slug] = upsert(Term, {"slug": record.slug}, record.fields)
    for record in records:
        related = [rows[slug] for slug in record.related]
        if set_m2m(rows[record.slug].related, related) and outcomes[record.slug] == "unchanged":
            outcomes[record.slug] = "updated"
    counts.update(outcomes.values())
    return counts
