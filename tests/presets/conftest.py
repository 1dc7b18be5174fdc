import pytest


@pytest.fixture(autouse=True)
def _shipped_presets(presets):
    """Every test here starts from the shipped presets in the test database."""
