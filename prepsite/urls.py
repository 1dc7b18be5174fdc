from django.contrib import admin
from django.urls import include, path

from prepsite.views import healthz

urlpatterns = [
    path("", include("questions.urls")),
    path("", include("glossary.urls")),
    path("", include("calculators.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
