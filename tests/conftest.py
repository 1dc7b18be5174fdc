import os

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# guard would otherwise refuse database access from live_server tests.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import pytest


@pytest.fixture(scope="session")
def shipped_records():
    """The shipped content files, read and validated once per test session."""
    from glossary.content import read_terms
    from prepsite.content import CONTENT_DIR
    from questions.content import read_banks

    terms = read_terms(CONTENT_DIR)
    banks = read_banks(CONTENT_DIR, {t.slug for t in terms})
    return terms, banks


def save_shipped(records) -> None:
    from glossary.content import save_terms
    from questions.content import save_banks

    terms, banks = records
    save_terms(terms)
    save_banks(banks)


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
def no_content(db):
    """An empty content database, for tests of loading (rolled back afterwards)."""
    from glossary.models import Term
    from questions.models import Bank, Question

    Question.objects.all().delete()
    Bank.objects.all().delete()
    Term.objects.all().delete()
