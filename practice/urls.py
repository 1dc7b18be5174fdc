from django.urls import path

from . import views

app_name = "practice"
urlpatterns = [
    path("", views.setup, name="setup"),
    path("session/", views.session, name="session"),
    path("progress/", views.progress_page, name="progress"),
    path("progress/export.json", views.export_json, name="export-json"),
    path("progress/export.csv", views.export_csv, name="export-csv"),
    path("progress/reset/", views.reset, name="reset"),
]
