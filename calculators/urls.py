from django.urls import path, register_converter

from . import views


class AnyText:
    """Any non-empty text, newlines and slashes included."""

    regex = r"[\s\S]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(AnyText, "anytext")

app_name = "calculators"
urlpatterns = [
    path("calculators/", views.index, name="index"),
    path("calculators/<slug:slug>/", views.detail, name="detail"),
    path("api/calculators/", views.api_index, name="api-index"),
    path("api/presets/", views.api_presets, name="api-presets"),
    # Anything after the prefix, so a program always gets a JSON 404 naming the known slugs.
    path("api/calculators/<anytext:slug>/", views.api_detail, name="api-detail"),
]
