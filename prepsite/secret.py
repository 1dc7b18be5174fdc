"""A secret key for a checkout that was given none: generated once, kept beside the code, never committed."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path


def load_or_create_secret_key(path: Path) -> str:
    """Read the key at ``path``, creating it (mode 600) first if it does not exist.

    Several gunicorn workers may start at once: the key is written to a private
    temporary file and linked into place, so every process reads the same
    complete key and none sees a half-written one.
    """
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    key = secrets.token_urlsafe(50)  # 67 characters from a 64-symbol alphabet
    temporary = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(key + "\n")
        with contextlib.suppress(FileExistsError):  # another process won the race: use its key
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text().strip()
    if len(key) < 50:
        raise ValueError(f"{path} holds a secret key shorter than 50 characters; delete it to generate a new one.")
    return key
