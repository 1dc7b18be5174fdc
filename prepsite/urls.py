from django.contrib import admin
from django.urls import include, path
from django.views.generic import RedirectView

from prepsite.views import healthz

urlpatterns = [
    path("", RedirectView.as_view(pattern_name="calculators:index", permanent=False), name="home"),
    path("", include("calculators.urls")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
