import pytest
from django.contrib.auth.models import Group, User


@pytest.fixture
def instructor(db):
    user = User.objects.create_user("ines", password="a long instructor passphrase", is_staff=True)
    user.groups.add(Group.objects.get(name="Instructors"))  # made by instructors' migration
    return user


@pytest.fixture
def instructor_client(client, instructor):
    client.force_login(instructor)
    return client


def form_data(response) -> dict:
    """What the browser would post back from an admin change form as rendered: every field, inlines included."""
    context = response.context
    forms = [context["adminform"].form]
    for inline in context.get("inline_admin_formsets", []):
        forms.append(inline.formset.management_form)
        forms.extend(inline.formset.forms)
    data = {}
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None:
                continue
            if isinstance(value, bool):
                if value:
                    data[bound.html_name] = "on"
            elif isinstance(value, list | tuple):
                data[bound.html_name] = [str(item) for item in value]
            else:
                data[bound.html_name] = str(value)
    return data


def errors_of(response) -> dict:
    form = response.context["adminform"].form
    return {name: list(messages) for name, messages in form.errors.items()}
