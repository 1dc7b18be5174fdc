"""All the content in one YAML file: export it, check an import whole, show what it would change, apply it.

The file holds the same fields as the files under content/ (content/README.md),
gathered under ``glossary``, ``banks`` (each with its ``questions``) and
``presets`` (``gpus``, ``models``). Export writes them in a fixed order with
fixed formatting, so the same database always gives the same bytes and two
exports diff cleanly. Import reads every entry through the content loaders' own
readers — the same rules as ``load_content``, down to a question's ``checks``
against its live worked answer — before it writes anything, and every error
names the entry and field: ``banks[inference].questions[kv-cache-basics].values``.
"""

from __future__ import annotations

import difflib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.db import transaction

from calculators.models import GpuPreset, ModelPreset
from calculators.preset_content import (
    GPU_FIELDS,
    MODEL_FIELDS,
    PresetRecords,
    entries,
    gpu_record,
    model_record,
    save_presets,
)
from glossary.content import TermRecord, check_terms, save_terms, term_record
from glossary.models import Term
from prepsite.content import ContentError, Fields, parse_yaml
from prepsite.history import recording_versions
from questions.content import BANK_FIELDS, BankRecord, check_banks, question_record, save_banks
from questions.content import bank_record as read_bank_record
from questions.models import Bank, Question

FORMAT_VERSION = 1
TOP_FIELDS = {"version", "glossary", "banks", "presets"}
HEADER = (
    "# prepsite content: glossary terms, question banks and presets (fields as in content/README.md).\n"
    "# python manage.py import_content FILE [--dry-run] loads it; export_content FILE writes it.\n"
)

TERM_KEYS = ("slug", "term", "aliases", "definition", "example", "calculator", "values", "related")
BANK_KEYS = ("slug", "title", "order", "summary")
QUESTION_KEYS = ("slug", "order", "title", "difficulty", "question", "answer", "takeaway", "calculator", "values",
                 "checks", "follow_ups", "strong_answer", "red_flags", "terms")  # fmt: skip
GPU_KEYS = ("slug", "name", "order", "peak_tflops", "bandwidth_tbs", "memory_gb", "notes", "measurements")
MODEL_KEYS = ("slug", "name", "order", "params_b", "active_params_b", "layers", "attention_heads", "kv_heads",
              "head_dim", "notes")  # fmt: skip


# Export ---------------------------------------------------------------------------------------------------------


class Flow(list):
    """A short list written on one line: ``terms: [prefill, decode]``."""


class FlowMap(dict):
    """A short mapping written on one line: ``values: {params_b: 70, prompt_tokens: 2000}``."""


class Dumper(yaml.SafeDumper):
    """Block style, text as literal blocks when it spans lines, short lists and values inline."""


def _text(dumper: yaml.SafeDumper, value: str):
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


Dumper.add_representer(str, _text)
Dumper.add_representer(Flow, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))
Dumper.add_representer(FlowMap, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True))


def _sorted_keys(value: Any) -> Any:
    """Nested mappings with their keys sorted (PostgreSQL's jsonb does not keep the order they were written in)."""
    if isinstance(value, dict):
        return {key: _sorted_keys(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [_sorted_keys(item) for item in value]
    return value


def _clean(value: Any) -> Any:
    # Import strips text, so export writes it stripped: a second export is then byte for byte the first.
    return value.strip() if isinstance(value, str) else value


def term_entry(term: Term) -> dict[str, Any]:
    return {
        "slug": term.slug,
        "term": _clean(term.term),
        "aliases": Flow(_clean(a) for a in term.aliases),
        "definition": _clean(term.definition),
        "example": _clean(term.example),
        "calculator": term.calculator,
        "values": FlowMap(_sorted_keys(term.values or {})),
        "related": Flow(sorted(other.slug for other in term.related.all())),
    }


def question_entry(question: Question) -> dict[str, Any]:
    entry = {key: _clean(getattr(question, key)) for key in QUESTION_KEYS if key not in {"values", "terms"}}
    entry["values"] = FlowMap(_sorted_keys(question.values or {}))
    for key in ("checks", "follow_ups", "strong_answer", "red_flags"):
        entry[key] = [_clean(item) for item in entry[key]]
    entry["terms"] = Flow(sorted(term.slug for term in question.terms.all()))
    return {key: entry[key] for key in QUESTION_KEYS}


def bank_entry(bank: Bank) -> dict[str, Any]:
    entry = {key: _clean(getattr(bank, key)) for key in BANK_KEYS}
    questions = sorted(bank.questions.all(), key=lambda q: (q.order, q.slug))
    entry["questions"] = [question_entry(q) for q in questions]
    return entry


def preset_entry(row, keys: tuple[str, ...]) -> dict[str, Any]:
    entry = {key: _clean(getattr(row, key)) for key in keys}
    if "measurements" in entry and entry["measurements"] is not None:
        entry["measurements"] = _sorted_keys(entry["measurements"])
    return entry


def export_data(bank_slugs: list[str] | None = None) -> dict[str, Any]:
    """Everything, or (given ``bank_slugs``) just those banks and their questions."""
    banks = Bank.objects.prefetch_related("questions__terms")
    if bank_slugs is not None:
        banks = banks.filter(slug__in=bank_slugs)
    data: dict[str, Any] = {"version": FORMAT_VERSION}
    if bank_slugs is None:
        terms = Term.objects.prefetch_related("related").order_by("slug")
        data["glossary"] = [term_entry(term) for term in terms]
    data["banks"] = [bank_entry(bank) for bank in sorted(banks, key=lambda b: (b.order, b.slug))]
    if bank_slugs is None:
        data["presets"] = {
            "gpus": [preset_entry(row, GPU_KEYS) for row in GpuPreset.objects.order_by("order", "slug")],
            "models": [preset_entry(row, MODEL_KEYS) for row in ModelPreset.objects.order_by("order", "slug")],
        }
    return data


def dump(data: dict[str, Any]) -> str:
    body = yaml.dump(data, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100, default_flow_style=False)
    return HEADER + body


def export_text(bank_slugs: list[str] | None = None) -> str:
    return dump(export_data(bank_slugs))


# Import: read and check ---------------------------------------------------------------------------------------


@dataclass
class Bundle:
    """An import file, every entry checked. A section the file leaves out is None and is not touched."""

    path: Path
    terms: list[TermRecord] | None
    banks: list[BankRecord] | None
    presets: PresetRecords | None


def _entry_prefix(section: str, entry: Any, index: int) -> str:
    slug = entry.get("slug") if isinstance(entry, dict) else None
    return f"{section}[{slug}]" if isinstance(slug, str) and slug.strip() else f"{section}[{index}]"


def _entry_list(path: Path, data: dict[str, Any], section: str) -> list[dict[str, Any]] | None:
    value = data.get(section)
    if section not in data:
        return None
    if value is None:
        return []
    if not isinstance(value, list):
        raise ContentError(path, section, "must be a list of entries")
    for index, entry in enumerate(value):
        if not isinstance(entry, dict):
            raise ContentError(path, f"{section}[{index}]", "must be a mapping of field: value")
    return value


def parse(text: str, path: Path) -> Bundle:
    """Read and check a whole import file against itself and the database; raises ContentError, writes nothing."""
    data = parse_yaml(text, path)
    top = Fields(path, data, TOP_FIELDS)
    version = top.integer("version", minimum=1)
    if version != FORMAT_VERSION:
        raise top.error("version", f"{version} is not a format this site reads (it reads {FORMAT_VERSION})")

    existing_terms = {
        slug: [name, *aliases] for slug, name, aliases in Term.objects.values_list("slug", "term", "aliases")
    }
    terms = None
    items = _entry_list(path, data, "glossary")
    if items is not None:
        terms = [term_record(path, entry, _entry_prefix("glossary", entry, i)) for i, entry in enumerate(items)]
        check_terms(terms, existing_terms)
    term_slugs = set(existing_terms) | {record.slug for record in terms or []}

    banks = None
    items = _entry_list(path, data, "banks")
    if items is not None:
        banks = []
        for index, entry in enumerate(items):
            prefix = _entry_prefix("banks", entry, index)
            bank = read_bank_record(path, entry, prefix, allowed=BANK_FIELDS | {"questions"})
            questions = entry.get("questions") or []
            if not isinstance(questions, list):
                raise bank.error("questions", "must be a list of questions")
            for i, question in enumerate(questions):
                where = _entry_prefix(f"{prefix}.questions", question, i)
                if not isinstance(question, dict):
                    raise ContentError(path, where, "must be a mapping of field: value")
                bank.questions.append(question_record(path, question, term_slugs, where))
            banks.append(bank)
        check_banks(banks)

    presets = None
    if "presets" in data:
        section = data["presets"] or {}
        if not isinstance(section, dict):
            raise ContentError(path, "presets", "must be a mapping with gpus and models")
        Fields(path, section, {"gpus", "models"}, "presets")
        gpus = [
            gpu_record(f, i, None)
            for i, f in entries(path, section.get("gpus") or [], "presets.gpus", GPU_FIELDS, allow_empty=True)
        ]
        models = [
            model_record(f, i)
            for i, f in entries(path, section.get("models") or [], "presets.models", MODEL_FIELDS, allow_empty=True)
        ]
        presets = PresetRecords(tuple(gpus), tuple(models))
    return Bundle(path=path, terms=terms, banks=banks, presets=presets)


# Import: what it would change -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldChange:
    name: str
    old: Any
    new: Any

    def lines(self, width: int = 100) -> list[str]:
        """How the change reads in a report: ``old → new`` for short values, a line diff for long text."""
        old, new = _shown(self.old), _shown(self.new)
        if "\n" not in old + new and len(old) + len(new) <= width:
            return [f"{self.name}: {old} → {new}"]
        diff = difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=1)
        return [f"{self.name}:", *(f"  {line}" for line in list(diff)[2:])]


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return value if "\n" in value else repr(value)
    if isinstance(value, dict | list):
        return yaml.dump(_sorted_keys(value), Dumper=Dumper, sort_keys=False, allow_unicode=True,
                         default_flow_style=True, width=10_000).strip()  # fmt: skip
    return repr(value)


@dataclass
class Change:
    kind: str  # "glossary term", "bank", "question", "GPU preset", "model preset"
    slug: str
    outcome: str  # "created", "updated", "unchanged"
    fields: list[FieldChange] = field(default_factory=list)


KINDS = ("glossary term", "bank", "question", "GPU preset", "model preset")


@dataclass
class Plan:
    bundle: Bundle
    changes: list[Change]

    def counts(self) -> dict[str, Counter]:
        counts = {kind: Counter(created=0, updated=0, unchanged=0) for kind in KINDS}
        for change in self.changes:
            counts[change.kind][change.outcome] += 1
        return {kind: c for kind, c in counts.items() if sum(c.values())}

    @property
    def changed(self) -> list[Change]:
        return [c for c in self.changes if c.outcome != "unchanged"]

    def report(self) -> list[str]:
        lines = []
        for kind, counts in self.counts().items():
            lines.append(f"{kind}s: {counts['created']} created, {counts['updated']} updated, "
                         f"{counts['unchanged']} left alone")  # fmt: skip
        for change in self.changed:
            lines.append(f"{change.outcome} {change.kind} {change.slug}")
            for field_change in change.fields:
                lines += [f"    {line}" for line in field_change.lines()]
        return lines


def _compare(kind: str, slug: str, row, wanted: dict[str, Any]) -> Change:
    if row is None:
        return Change(kind, slug, "created")
    fields = [FieldChange(name, getattr(row, name), value) for name, value in wanted.items()
              if getattr(row, name) != value]  # fmt: skip
    return Change(kind, slug, "updated" if fields else "unchanged", fields)


def _links(manager_rows) -> list[str]:
    return sorted(row.slug for row in manager_rows)


def plan(bundle: Bundle) -> Plan:
    """What applying ``bundle`` would do, entry by entry and field by field, read from the database only.

    It compares exactly what the loaders' upserts compare, so it predicts them.
    """
    changes: list[Change] = []
    if bundle.terms is not None:
        rows = Term.objects.prefetch_related("related").in_bulk([r.slug for r in bundle.terms], field_name="slug")
        for record in bundle.terms:
            row = rows.get(record.slug)
            change = _compare("glossary term", record.slug, row, record.fields)
            if row is not None and _links(row.related.all()) != sorted(record.related):
                change.fields.append(FieldChange("related", _links(row.related.all()), sorted(record.related)))
                change.outcome = "updated"
            changes.append(change)
    if bundle.banks is not None:
        bank_rows = Bank.objects.in_bulk([b.slug for b in bundle.banks], field_name="slug")
        slugs = [q.slug for b in bundle.banks for q in b.questions]
        question_rows = (
            Question.objects.select_related("bank").prefetch_related("terms").in_bulk(slugs, field_name="slug")
        )
        for bank in bundle.banks:
            changes.append(_compare("bank", bank.slug, bank_rows.get(bank.slug), bank.fields))
            for question in bank.questions:
                row = question_rows.get(question.slug)
                change = _compare("question", question.slug, row, question.fields)
                if row is not None:
                    if row.bank.slug != bank.slug:
                        change.fields.insert(0, FieldChange("bank", row.bank.slug, bank.slug))
                    if _links(row.terms.all()) != sorted(question.terms):
                        change.fields.append(FieldChange("terms", _links(row.terms.all()), sorted(question.terms)))
                    change.outcome = "updated" if change.fields else "unchanged"
                changes.append(change)
    if bundle.presets is not None:
        for kind, model, records in (("GPU preset", GpuPreset, bundle.presets.gpus),
                                     ("model preset", ModelPreset, bundle.presets.models)):  # fmt: skip
            rows = model.objects.in_bulk([r["slug"] for r in records], field_name="slug")
            for record in records:
                wanted = {name: value for name, value in record.items() if name != "slug"}
                changes.append(_compare(kind, record["slug"], rows.get(record["slug"]), wanted))
    return Plan(bundle, changes)


def apply(bundle: Bundle, *, comment: str, user=None) -> dict[str, Counter]:
    """Write the bundle in one transaction, recording a version of each row it changes; the loaders' own counts."""
    results: dict[str, Counter] = {}
    with transaction.atomic(), recording_versions(comment, user):
        if bundle.presets is not None:
            saved = save_presets(bundle.presets)
            results["GPU preset"], results["model preset"] = saved["GpuPreset"], saved["ModelPreset"]
        if bundle.terms is not None:
            results["glossary term"] = save_terms(bundle.terms)
        if bundle.banks is not None:
            saved = save_banks(bundle.banks)
            results["bank"], results["question"] = saved["banks"], saved["questions"]
    return results
