from django.contrib import admin
from django.urls import include, path

from prepsite.views import healthz

# The calculators come first: slider updates are most of the traffic, and each
# include a request passes costs a resolve.
urlpatterns = [
    path("", include("calculators.urls")),
    path("", include("questions.urls")),
    path("", include("glossary.urls")),
    path("practice/", include("practice.urls")),
    path("accounts/", include("practice.accounts_urls")),
    path("admin/content/", include("instructors.urls")),  # before the admin's catch-all
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
]
