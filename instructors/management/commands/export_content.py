"""Write all the content (or some banks) to one YAML file: same database, same bytes."""

from __future__ import annotations

import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from instructors.exchange import export_text
from questions.models import Bank


class Command(BaseCommand):
    help = "Export glossary terms, banks with their questions, and presets to one YAML file (- for stdout)."

    def add_arguments(self, parser):
        parser.add_argument("path", help="file to write, or - for standard output")
        parser.add_argument(
            "--bank", action="append", dest="banks", metavar="SLUG", help="only this bank and its questions (repeat)"
        )

    def handle(self, *args, path: str, banks: list[str] | None, **options):
        if banks:
            unknown = sorted(set(banks) - set(Bank.objects.filter(slug__in=banks).values_list("slug", flat=True)))
            if unknown:
                raise CommandError(f"No bank called {', '.join(unknown)}.")
        text = export_text(banks)
        if path == "-":
            sys.stdout.write(text)
            return
        target = Path(path)
        try:
            target.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Cannot write {target}: {exc}") from exc
        self.stderr.write(f"Wrote {target} ({len(text.encode()):,} bytes).")
