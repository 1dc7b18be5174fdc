import pytest


@pytest.fixture(autouse=True)
def _shipped_presets(presets):
    """Calculator pages list the presets, so every test here sees the shipped ones."""
