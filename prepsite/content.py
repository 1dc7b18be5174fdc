"""Reading the content files under content/: YAML in, plain dicts out, errors that name the file and field.

Every loader (banks and questions, glossary, presets) reads through here, so an
instructor who breaks a file always gets the same kind of message:
``content/glossary/kv-cache.yaml: related: unknown glossary term 'kv-cashe'``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
SLUG_RE = re.compile(r"^[a-z0-9]+(?:[-.][a-z0-9]+)*$")


class ContentError(ValueError):
    """A content file is unreadable or a field in it is wrong."""

    def __init__(self, path: Path | str, field: str | None, message: str):
        self.path = Path(path)
        self.field = field
        self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = display_path(self.path)
        return f"{where}: {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(CONTENT_DIR.parent))
    except ValueError:
        return str(path)


def read_yaml(path: Path) -> dict[str, Any]:
    """One YAML mapping from a file, or a ContentError saying where it broke."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ContentError(path, None, f"cannot be read ({exc})") from exc
    return parse_yaml(text, path)


class StrictLoader(yaml.SafeLoader):
    """YAML's safe loader, refusing a key given twice in one mapping (plain YAML keeps the last, silently)."""

    def construct_mapping(self, node, deep=False):
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if isinstance(key, str) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"the key {key!r} is given twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def parse_yaml(text: str, path: Path) -> dict[str, Any]:
    """One YAML mapping from text that came from ``path`` (a file, an upload), or a ContentError."""
    try:
        data = yaml.load(text, Loader=StrictLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ContentError(path, None, f"is not valid YAML{line}: {problem}") from exc
    if not isinstance(data, dict):
        raise ContentError(path, None, "must hold a mapping of field: value")
    return data


class Fields:
    """Typed access to one file's mapping; every complaint names the file and the field."""

    def __init__(self, path: Path, data: dict[str, Any], allowed: set[str], prefix: str = ""):
        self.path = path
        self.data = data
        # Where the mapping sits inside its file, for files that hold many entries: ``gpus[h200]``.
        self.prefix = prefix
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.error(unknown[0], f"unknown field (allowed: {', '.join(sorted(allowed))})")

    def error(self, field: str, message: str) -> ContentError:
        if self.prefix:
            return ContentError(self.path, f"{self.prefix}.{field}" if field else self.prefix, message)
        return ContentError(self.path, field, message)

    def text(self, field: str, *, required: bool = True, max_length: int | None = None) -> str:
        value = self.data.get(field)
        if value is None or (isinstance(value, str) and not value.strip()):
            if required:
                raise self.error(field, "is required")
            return ""
        if not isinstance(value, str):
            raise self.error(field, f"must be text, not {type(value).__name__}")
        value = value.strip()
        if max_length is not None and len(value) > max_length:
            raise self.error(field, f"must be at most {max_length} characters (it has {len(value)})")
        return value

    def slug(self, field: str = "slug", *, required: bool = True) -> str:
        value = self.text(field, required=required, max_length=100)
        if value and not SLUG_RE.match(value):
            raise self.error(field, f"{value!r} is not a slug (lower-case letters, digits and hyphens)")
        return value

    def integer(self, field: str, *, minimum: int = 0, required: bool = True, default: int = 0) -> int:
        value = self.data.get(field)
        if value is None:
            if required:
                raise self.error(field, "is required")
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(field, f"must be a whole number, not {value!r}")
        if value < minimum:
            raise self.error(field, f"must be at least {minimum}")
        return value

    def number(self, field: str, *, minimum: float | None = None, required: bool = True) -> float | None:
        value = self.data.get(field)
        if value is None:
            if required:
                raise self.error(field, "is required")
            return None
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or value != value
            or abs(value) == float("inf")
        ):
            raise self.error(field, f"must be a finite number, not {value!r}")
        if minimum is not None and value < minimum:
            raise self.error(field, f"must be at least {minimum:g}")
        return float(value)

    def text_list(self, field: str, *, required: bool = False) -> list[str]:
        value = self.data.get(field)
        if value is None:
            if required:
                raise self.error(field, "is required")
            return []
        if not isinstance(value, list) or not all(isinstance(item, str) and item.strip() for item in value):
            raise self.error(field, "must be a list of non-empty text items")
        return [item.strip() for item in value]

    def slug_list(self, field: str) -> list[str]:
        items = self.text_list(field)
        for item in items:
            if not SLUG_RE.match(item):
                raise self.error(field, f"{item!r} is not a slug")
        if len(set(items)) != len(items):
            raise self.error(field, "lists the same slug twice")
        return items

    def mapping(self, field: str, *, required: bool = False) -> dict[str, Any]:
        value = self.data.get(field)
        if value is None:
            if required:
                raise self.error(field, "is required")
            return {}
        if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
            raise self.error(field, "must be a mapping of name: value")
        return value


def yaml_files(directory: Path) -> list[Path]:
    """The YAML files of a folder in name order (so numbered files load in order)."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file())


def upsert(model, lookup: dict[str, Any], fields: dict[str, Any]) -> tuple[Any, str]:
    """Create or update one row by its natural key; 'created', 'updated' or 'unchanged'.

    Saves only when a field really differs, so loading the same files twice writes nothing.
    """
    row = model.objects.filter(**lookup).first()
    if row is None:
        row = model(**lookup, **fields)
        row.save()
        return row, "created"
    changed = [name for name, value in fields.items() if getattr(row, name) != value]
    if not changed:
        return row, "unchanged"
    for name in changed:
        setattr(row, name, fields[name])
    row.save()
    return row, "updated"


def set_m2m(manager, wanted: list[Any]) -> bool:
    """Point a many-to-many at exactly these rows; True when that changed anything."""
    current = {obj.pk for obj in manager.all()}
    if current == {obj.pk for obj in wanted}:
        return False
    manager.set(wanted)
    return True
