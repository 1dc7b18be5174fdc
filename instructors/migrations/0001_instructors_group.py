"""The "Instructors" group: add, change and view the content models; nothing else (no users, groups or deletes)."""

from django.db import migrations

GROUP = "Instructors"
CONTENT = [
    ("questions", "bank"),
    ("questions", "question"),
    ("glossary", "term"),
    ("calculators", "gpupreset"),
    ("calculators", "modelpreset"),
]
ACTIONS = ("add", "change", "view")


def create_group(apps, schema_editor):
    # Permissions are normally made after the last migration; make them now so the group can hold them.
    from django.apps import apps as global_apps
    from django.contrib.auth.management import create_permissions

    for label in {app for app, _ in CONTENT}:
        create_permissions(global_apps.get_app_config(label), verbosity=0, using=schema_editor.connection.alias,
                           apps=apps)
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(schema_editor.connection.alias).get_or_create(name=GROUP)
    codenames = [f"{action}_{model}" for _, model in CONTENT for action in ACTIONS]
    permissions = Permission.objects.using(schema_editor.connection.alias).filter(
        content_type__app_label__in={app for app, _ in CONTENT}, codename__in=codenames
    )
    group.permissions.set(permissions)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("questions", "0001_initial"),
        ("glossary", "0001_initial"),
        ("calculators", "0001_presets"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
