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
    prefix: str = ""  # where it sits in a file of many entries (an export); empty for a file of its own

    def error(self, name: str, message: str) -> ContentError:
        return ContentError(self.path, f"{self.prefix}.{name}" if self.prefix else name, message)


def read_terms(content_dir: Path) -> list[TermRecord]:
    records = [term_record(path, read_yaml(path)) for path in yaml_files(content_dir / "glossary")]
    check_terms(records)
    return records


def term_record(path: Path, data: dict[str, Any], prefix: str = "") -> TermRecord:
    """One term's mapping, checked on its own; ``check_terms`` then checks the set."""
    f = Fields(path, data, FIELDS, prefix)
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
    return TermRecord(
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
        prefix=prefix,
    )


def check_terms(records: list[TermRecord], existing: dict[str, list[str]] | None = None) -> None:
    """Slugs unique, every name and alias names one term only, related terms exist.

    ``existing`` maps the slug of each term already in the database to its names
    (term and aliases), for an import that adds to what is there: names must not
    clash with those of other terms, and related terms may be among them.
    """
    slugs: dict[str, TermRecord] = {}
    names: dict[str, str] = {}
    for record in records:
        if record.slug in slugs:
            raise record.error("slug", f"“{record.slug}” is also used by {where(slugs[record.slug])}")
        slugs[record.slug] = record
    for slug, their_names in (existing or {}).items():
        if slug not in slugs:
            names.update((name.casefold(), slug) for name in their_names)
    for record in records:
        for kind, name in [("term", record.fields["term"])] + [("aliases", a) for a in record.fields["aliases"]]:
            key = name.casefold()
            if key in names and names[key] != record.slug:
                raise record.error(kind, f"“{name}” already names the term “{names[key]}”")
            names[key] = record.slug
        for other in record.related:
            if other not in slugs and other not in (existing or {}):
                raise record.error("related", f"unknown glossary term “{other}”")
            if other == record.slug:
                raise record.error("related", "a term cannot be related to itself")


def where(record: TermRecord) -> str:
    return record.prefix or record.path.name


def save_terms(records: list[TermRecord]) -> Counter:
    from .models import Term

    counts: Counter = Counter()
    rows = {}
    outcomes = {}
    for record in records:
        rows[record.slug], outcomes[record.slug] = upsert(Term, {"slug": record.slug}, record.fields)
    elsewhere = {slug for record in records for slug in record.related} - set(rows)
    rows.update((term.slug, term) for term in Term.objects.filter(slug__in=elsewhere))  # an import adds to these
    for record in records:
        related = [rows[slug] for slug in record.related]
        if set_m2m(rows[record.slug].related, related) and outcomes[record.slug] == "unchanged":
            outcomes[record.slug] = "updated"
    counts.update(outcomes.values())
    return counts
