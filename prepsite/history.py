"""Content history: every saved change to a bank, question, term or preset becomes a restorable version.

The admin records its own edits (django-reversion's VersionAdmin). Changes made
in code — ``load_content``, ``import_content``, the admin's import page — go
through ``recording_versions``: it notes each content row saved or re-linked
while it is open and, when the block succeeds, stores one revision per row with
who did it and why. One revision per row, so restoring a question from an
import restores that question alone, not everything the import touched.
Writes that bypass ``save()`` (``QuerySet.update``, ``bulk_create``) are not seen;
the content loaders never use them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import reversion
from django.db import transaction
from django.db.models.signals import m2m_changed, post_save


def content_models() -> list[type]:
    from calculators.models import GpuPreset, ModelPreset
    from glossary.models import Term
    from questions.models import Bank, Question

    return [Bank, Question, Term, GpuPreset, ModelPreset]


def register_content_models() -> None:
    """Each content model on its own (no followed relations: reverting a bank never reverts its questions)."""
    for model in content_models():
        if not reversion.is_registered(model):
            reversion.register(model)


@contextmanager
def recording_versions(comment: str, user=None) -> Iterator[None]:
    """Store a version of every content row saved (or whose many-to-many changed) inside this block."""
    register_content_models()
    touched: dict[tuple[type, int], object] = {}
    models = tuple(content_models())
    thread = threading.get_ident()  # signals are process-wide: note only this thread's writes

    def saved(sender, instance, raw=False, **kwargs):
        if not raw and isinstance(instance, models) and threading.get_ident() == thread:
            touched[(type(instance), instance.pk)] = instance

    def relinked(sender, instance, action, reverse, **kwargs):
        if (
            action.startswith("post_")
            and not reverse
            and isinstance(instance, models)
            and threading.get_ident() == thread
        ):
            touched[(type(instance), instance.pk)] = instance

    post_save.connect(saved, weak=False)
    m2m_changed.connect(relinked, weak=False)
    try:
        with transaction.atomic():
            yield
            for instance in touched.values():
                with reversion.create_revision(manage_manually=True):
                    reversion.add_to_revision(instance)
                    reversion.set_comment(comment)
                    if user is not None:
                        reversion.set_user(user)
    finally:
        post_save.disconnect(saved)
        m2m_changed.disconnect(relinked)
