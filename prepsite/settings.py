"""One settings file, driven by the environment; SQLite and DEBUG off unless told otherwise.

Production is the default: with nothing set, DEBUG is off, cookies are secure,
plain http is redirected to https and HSTS is sent. Each of those has a switch
(``SECURE_SSL_REDIRECT=0`` and so on) for a plain-http loopback such as
``make serve`` or the test suite, which set them explicitly.
"""

from __future__ import annotations

import os
import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE

from prepsite.secret import load_or_create_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def envint(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


DEBUG = envbool("DEBUG", False)
# SECRET_KEY from the environment; otherwise a development key with DEBUG on, and
# with DEBUG off a random key generated once for this checkout (gitignored, mode 600).
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    "dev-only-not-secret-" + "x" * 40
    if DEBUG
    else load_or_create_secret_key(Path(os.environ.get("SECRET_KEY_FILE", BASE_DIR / ".secret_key")))
)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "csp",
    "template_partials",
    "reversion",
    "axes",
    "calculators",
    "questions",
    "glossary",
    "practice",
    "instructors",
]

MIDDLEWARE = [
    "prepsite.middleware.PageGZipMiddleware",  # first, so it compresses the finished response
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "prepsite.middleware.CSPMiddleware",  # django-csp, with the site policy built once
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # turns a locked-out login into the lockout page
]

ROOT_URLCONF = "prepsite.urls"
WSGI_APPLICATION = "prepsite.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# DATABASE_URL (postgres://user:password@host:port/name, or a unix socket as
# postgres://user@%2Frun%2Fpostgresql/name); SQLite in the checkout by default.
DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or "sqlite:///" + os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Password guessing: every authenticate() with a request (the admin's login, the
# candidates' LoginView) passes django-axes first. It counts failures per username
# *and* address in the database (AccessAttempt rows, updated atomically), so one
# attacker cannot lock a user out from elsewhere; after AXES_FAILURE_LIMIT failures
# that pair is refused for AXES_COOLOFF_TIME, then may try again.
AUTHENTICATION_BACKENDS = [
    "prepsite.auth.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True  # a correct password clears the count (before the limit is reached)
AXES_LOCKOUT_CALLABLE = "prepsite.auth.lockout_response"  # templates/registration/locked_out.html
AXES_VERBOSE = False
# The client address is REMOTE_ADDR; behind a proxy, set AXES_IPWARE_* or a callable (see README).

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Candidates' accounts (/accounts/): Django's login and logout views; practice progress follows the login.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "practice:setup"
LOGOUT_REDIRECT_URL = "questions:home"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# make serve collects with whitenoise's CompressedManifestStaticFilesStorage: hashed
# names (cached for ever, immutable) with brotli and gzip copies beside them.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": os.environ.get("STATICFILES_BACKEND", "django.contrib.staticfiles.storage.StaticFilesStorage")
    },
}
# Collected files keep only their hashed names (halves the compression work; nothing
# refers to the plain names once templates use {% static %}).
WHITENOISE_KEEP_ONLY_HASHED_FILES = envbool("WHITENOISE_KEEP_ONLY_HASHED_FILES", True)
# Without collectstatic (development, tests) whitenoise serves straight from the finders.
WHITENOISE_USE_FINDERS = envbool("WHITENOISE_USE_FINDERS", True)
# ...and says so once per process when STATIC_ROOT does not exist yet; that is expected here.
warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)

SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# https in production; each switch can be turned off for a plain-http loopback.
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
# The preload directive only allows a submission to the browsers' list; it does not submit.
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", not DEBUG)
# Behind a TLS-terminating proxy that sets X-Forwarded-Proto (only then: the header is trusted).
if envbool("SECURE_PROXY_SSL_HEADER", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_HTTPONLY = True

# Content-Security-Policy (django-csp 4): scripts only from our own origin, never
# inline or eval'd; templates carry no inline script or handler (a test checks),
# htmx uses no hx-on or trigger filters (its only eval paths), chart data travels
# as JSON. plotly.js injects <style> elements, hence style-src 'unsafe-inline'.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF, UNSAFE_INLINE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [NONE],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
