import os

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# guard would otherwise refuse database access from live_server tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def load_shipped_presets():
    """The presets in content/presets, through the same functions load_content calls."""
    from calculators.preset_content import read_presets, save_presets
    from prepsite.content import CONTENT_DIR

    return save_presets(read_presets(CONTENT_DIR))


@pytest.fixture
def presets(db):
    """The shipped presets in the test database (rolled back after each test)."""
    return load_shipped_presets()


@pytest.fixture
def live_presets(transactional_db):
    """The shipped presets for a live server (its tables are flushed after each test, so load them each time)."""
    return load_shipped_presets()
