"""The "Instructors" group: add, change and view the content models; nothing else (no users, groups or deletes)."""

from __future__ import annotations

GROUP = "Instructors"
CONTENT = [
    ("questions", "bank"),
    ("questions", "question"),
    ("glossary", "term"),
    ("calculators", "gpupreset"),
    ("calculators", "modelpreset"),
]
ACTIONS = ("add", "change", "view")


def ensure_instructors_group(apps=None, using: str = "default"):
    """Create the group (or reset its permissions); the migration calls it, and so can a test after a flush."""
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    apps = apps or global_apps
    # Permissions are normally made after the last migration; make them now so the group can hold them.
    for label in sorted({app for app, _ in CONTENT}):
        create_permissions(global_apps.get_app_config(label), verbosity=0, using=using, apps=apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(using).get_or_create(name=GROUP)
    codenames = [f"{action}_{model}" for _, model in CONTENT for action in ACTIONS]
    permissions = Permission.objects.using(using).filter(
        content_type__app_label__in={app for app, _ in CONTENT}, codename__in=codenames
    )
    group.permissions.set(permissions)
    return group
