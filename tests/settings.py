"""The project's settings as the test suite sees them: production defaults, served over plain http.

The test client and the live server speak plain http on loopback, like ``make
serve``; only the redirect to https has to be off for that. Everything else
(DEBUG off, CSP, secure cookies, HSTS) stays as in production. Tests of the
production defaults themselves run ``manage.py`` in a subprocess.
"""

import os

os.environ.setdefault("SECURE_SSL_REDIRECT", "0")

from prepsite.settings import *  # noqa: F403
