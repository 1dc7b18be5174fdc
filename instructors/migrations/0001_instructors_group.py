"""The "Instructors" group: add, change and view the content models; nothing else (no users, groups or deletes)."""

from django.db import migrations

from instructors.groups import GROUP, ensure_instructors_group


def create_group(apps, schema_editor):
    ensure_instructors_group(apps, using=schema_editor.connection.alias)


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
