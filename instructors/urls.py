from django.contrib import admin
from django.urls import path

from . import views

app_name = "instructors"

# Under /admin/content/: the admin's login, session and staff checks apply (admin_view).
urlpatterns = [
    path("preview/", admin.site.admin_view(views.preview), name="preview"),
    path("export/", admin.site.admin_view(views.export_all), name="export"),
    path("import/", admin.site.admin_view(views.import_content), name="import"),
]
