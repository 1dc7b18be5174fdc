"""Settings come from the environment; with nothing set they are production's."""

import json
import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import dj_database_url
import pytest

from prepsite.secret import load_or_create_secret_key

ROOT = Path(__file__).resolve().parents[2]
SHOW = """
import json
from django.conf import settings
names = ["DEBUG", "SECURE_SSL_REDIRECT", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
         "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS",
         "SECRET_KEY", "X_FRAME_OPTIONS", "SECURE_CONTENT_TYPE_NOSNIFF", "SECURE_REFERRER_POLICY"]
print(json.dumps({n: getattr(settings, n) for n in names} | {"DB": settings.DATABASES["default"]["ENGINE"]}))
"""


def manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    """manage.py in a fresh process with exactly the given environment on top of a clean one."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "SECURE_", "DEBUG", "SECRET_KEY"))}
    clean.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "prepsite.settings", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def settings_with(**env: str) -> dict:
    result = manage("shell", "-c", SHOW, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # after the shell's own notice


def test_check_deploy_reports_no_issues_with_production_settings():
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="0", SECRET_KEY=secrets.token_urlsafe(50)[:50], ALLOWED_HOSTS="localhost",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


def test_check_deploy_fails_when_debug_is_on():
    result = manage("check", "--deploy", "--fail-level", "WARNING", DEBUG="1", SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode != 0
    assert "security.W018" in result.stderr  # DEBUG in deployment


def test_with_nothing_set_the_settings_are_productions():
    values = settings_with(SECRET_KEY="k" * 20 + secrets.token_hex(20))
    assert values["DEBUG"] is False
    assert values["SECURE_SSL_REDIRECT"] is True
    assert values["SESSION_COOKIE_SECURE"] is True and values["CSRF_COOKIE_SECURE"] is True
    assert values["SECURE_HSTS_SECONDS"] == 31_536_000
    assert values["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True and values["SECURE_HSTS_PRELOAD"] is True
    assert values["X_FRAME_OPTIONS"] == "DENY"
    assert values["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert values["SECURE_REFERRER_POLICY"] == "same-origin"
    assert values["DB"] == "django.db.backends.sqlite3"


def test_every_switch_is_read_from_the_environment():
    values = settings_with(
        DEBUG="1", SECRET_KEY="s" * 60, ALLOWED_HOSTS="prep.example, www.prep.example",
        CSRF_TRUSTED_ORIGINS="https://prep.example", SECURE_SSL_REDIRECT="0", SESSION_COOKIE_SECURE="0",
        CSRF_COOKIE_SECURE="0", SECURE_HSTS_SECONDS="60", SECURE_HSTS_PRELOAD="0",
        DATABASE_URL="postgres://prep:pw@db.internal:5433/prep",
    )  # fmt: skip
    assert values["DEBUG"] is True
    assert values["SECRET_KEY"] == "s" * 60
    assert values["ALLOWED_HOSTS"] == ["prep.example", "www.prep.example"]
    assert values["CSRF_TRUSTED_ORIGINS"] == ["https://prep.example"]
    assert values["SECURE_SSL_REDIRECT"] is False
    assert values["SESSION_COOKIE_SECURE"] is False and values["CSRF_COOKIE_SECURE"] is False
    assert values["SECURE_HSTS_SECONDS"] == 60 and values["SECURE_HSTS_PRELOAD"] is False
    assert values["DB"] == "django.db.backends.postgresql"


def test_without_a_secret_key_production_generates_one_per_checkout_and_keeps_it(tmp_path):
    key_file = tmp_path / "key"
    first = settings_with(SECRET_KEY_FILE=str(key_file))["SECRET_KEY"]
    second = settings_with(SECRET_KEY_FILE=str(key_file))["SECRET_KEY"]
    assert first == second == key_file.read_text().strip()
    assert len(first) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_the_generated_key_is_never_committed():
    assert ".secret_key" in (ROOT / ".gitignore").read_text().splitlines()


def test_a_secret_key_file_is_created_once_and_read_back(tmp_path):
    path = tmp_path / "secret"
    key = load_or_create_secret_key(path)
    assert load_or_create_secret_key(path) == key
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_a_truncated_secret_key_file_is_refused_with_its_path(tmp_path):
    path = tmp_path / "secret"
    path.write_text("short")
    with pytest.raises(ValueError, match=r"secret holds a secret key shorter than 50 characters"):
        load_or_create_secret_key(path)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgres://prep:s3cret@127.0.0.1:5433/prepsite", ("postgresql", "prepsite", "prep", "127.0.0.1", 5433)),
        ("postgres://prep@%2Ftmp%2Fpg/prepsite", ("postgresql", "prepsite", "prep", "/tmp/pg", "")),
        ("sqlite:////var/lib/prep/db.sqlite3", ("sqlite3", "/var/lib/prep/db.sqlite3", "", "", "")),
    ],
)
def test_database_urls_name_the_engine_database_user_and_host(url, expected):
    db = dj_database_url.parse(url)
    assert (db["ENGINE"].rsplit(".", 1)[1], db["NAME"], db["USER"], db["HOST"], db["PORT"] or "") == expected
