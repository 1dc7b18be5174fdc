"""The project's settings as the test suite sees them: production defaults, served over plain http.

The test client and the live server speak plain http on loopback, like ``make
serve``; only the redirect to https has to be off for that. Everything else
(DEBUG off, CSP, secure cookies, HSTS) stays as in production. Tests of the
production defaults themselves run ``manage.py`` in a subprocess.
"""

import os

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from prepsite.settings import *  # noqa: F403

# Hashing a password the production way takes about a second on these shared cores, and the
# account tests log in dozens of times; a fast hasher tests the same flows.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
