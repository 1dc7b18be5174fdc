from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("questions.urls")),
    path("", include("glossary.urls")),
    path("", include("calculators.urls")),
    path("admin/", admin.site.urls),
]
