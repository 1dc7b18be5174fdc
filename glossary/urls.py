from django.urls import path

from . import views

app_name = "glossary"
urlpatterns = [
    path("glossary/", views.index, name="index"),
    path("glossary/<slug:slug>/", views.term, name="term"),
    path("api/glossary/", views.api_glossary, name="api-glossary"),
]
