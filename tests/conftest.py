import os

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# guard would otherwise refuse database access from live_server tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest


@pytest.fixture(scope="session")
def shipped_records():
    """The shipped content files, read and validated once per test session."""
    from calculators.preset_content import read_presets
    from glossary.content import read_terms
    from prepsite.content import CONTENT_DIR
    from questions.content import read_banks

    terms = read_terms(CONTENT_DIR)
    banks = read_banks(CONTENT_DIR, {t.slug for t in terms})
    return terms, banks, read_presets(CONTENT_DIR)


def save_shipped(records) -> None:
    from calculators.preset_content import save_presets
    from glossary.content import save_terms
    from questions.content import save_banks

    terms, banks, presets = records
    save_terms(terms)
    save_banks(banks)
    save_presets(presets)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, shipped_records):
    """Load the shipped content once into the test database; each test's transaction rolls back on top of it.

    Tests that flush the database (live_server, transactional_db) run after the others, and load it again.
    """
    with django_db_blocker.unblock():
        save_shipped(shipped_records)


@pytest.fixture
def content(db, shipped_records):
    """The shipped banks, questions and glossary in the test database."""
    return shipped_records


@pytest.fixture
def presets(db, shipped_records):
    """The shipped GPU and model presets in the test database. Loaded once per session already; saving again is
    two queries when nothing changed, and restores them after a test that flushed the database."""
    from calculators.preset_content import save_presets

    return save_presets(shipped_records[2])


@pytest.fixture
def live_presets(transactional_db, shipped_records):
    """The shipped presets for a live server (its tables are flushed after each test, so load them each time)."""
    from calculators.preset_content import save_presets

    return save_presets(shipped_records[2])


@pytest.fixture
def no_content(db):
    """An empty content database, for tests of loading (rolled back afterwards)."""
    from calculators.models import GpuPreset, ModelPreset
    from glossary.models import Term
    from questions.models import Bank, Question

    Question.objects.all().delete()
    Bank.objects.all().delete()
    Term.objects.all().delete()
    GpuPreset.objects.all().delete()
    ModelPreset.objects.all().delete()
