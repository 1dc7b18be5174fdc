"""Load the content files (glossary, banks and questions, presets) into the database.

Every file is read and validated before anything is written, and the writes
happen in one transaction: a broken file is refused with its path and field,
and the database is left exactly as it was. Rows are upserted by slug, so
running it again changes nothing.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from calculators.preset_content import read_presets, save_presets
from glossary.content import read_terms, save_terms
from prepsite.content import CONTENT_DIR, ContentError
from prepsite.history import recording_versions
from questions.content import read_banks, save_banks


def summary(kind: str, counts: Counter) -> str:
    parts = [f"{counts.get(k, 0)} {k}" for k in ("created", "updated", "unchanged")]
    return f"{kind}: {', '.join(parts)}"


class Command(BaseCommand):
    help = "Validate and load the content files (idempotent: upserts by slug)."

    def add_arguments(self, parser):
        parser.add_argument("--path", type=Path, default=CONTENT_DIR, help="content folder (default: content/)")
        parser.add_argument("--check", action="store_true", help="validate every file and write nothing")

    def handle(self, *args, path: Path, check: bool, **options):
        if not path.is_dir():
            raise CommandError(f"No content folder at {path}.")
        try:
            terms = read_terms(path)
            banks = read_banks(path, {term.slug for term in terms})
            presets = read_presets(path)
        except ContentError as exc:
            raise CommandError(f"Refused, nothing was written. {exc}") from exc
        questions = sum(len(bank.questions) for bank in banks)
        if check:
            self.stdout.write(
                f"OK: {len(terms)} glossary terms, {len(banks)} banks, {questions} questions, "
                f"{len(presets.gpus)} GPU presets and {len(presets.models)} model presets are valid."
            )
            return
        # Each row written gets a version in its history, restorable from the admin.
        with transaction.atomic(), recording_versions("Loaded from the content files (load_content)"):
            saved_presets = save_presets(presets)
            results = {
                "glossary terms": save_terms(terms),
                **save_banks(banks),
                "GPU presets": saved_presets["GpuPreset"],
                "model presets": saved_presets["ModelPreset"],
            }
        for kind, counts in results.items():
            self.stdout.write(summary(kind, counts))
