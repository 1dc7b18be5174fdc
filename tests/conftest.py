import os

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# guard would otherwise refuse database access from live_server tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
