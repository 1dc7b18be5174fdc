"""Load an exported content file: check all of it first, then write it in one transaction (or only show the changes)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from instructors.exchange import apply, parse, plan
from prepsite.content import ContentError


class Command(BaseCommand):
    help = "Import a file written by export_content: upsert by slug, report what was created, updated and left alone."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument("--dry-run", action="store_true", help="show the changes, field by field; write nothing")

    def handle(self, *args, path: Path, dry_run: bool, **options):
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"Cannot read {path}: {exc}") from exc
        try:
            bundle = parse(text, path)
        except ContentError as exc:
            raise CommandError(f"Refused, nothing was written. {exc}") from exc
        changes = plan(bundle)
        for line in changes.report():
            self.stdout.write(line)
        if dry_run:
            self.stdout.write("Dry run: nothing was written.")
            return
        if not changes.changed:
            self.stdout.write("Nothing to change.")
            return
        apply(bundle, comment=f"Imported from {path.name} (import_content)")
        self.stdout.write(f"Imported: {len(changes.changed)} entries written in one transaction.")
