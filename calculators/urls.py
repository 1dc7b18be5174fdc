from django.urls import path

from . import views

app_name = "calculators"
urlpatterns = [
    path("calculators/", views.index, name="index"),
    path("calculators/<slug:slug>/", views.detail, name="detail"),
    path("api/calculators/", views.api_index, name="api-index"),
    path("api/calculators/<slug:slug>/", views.api_detail, name="api-detail"),
    path("api/presets/", views.api_presets, name="api-presets"),
]
