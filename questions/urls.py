from django.urls import path

from . import views

app_name = "questions"
urlpatterns = [
    path("", views.home, name="home"),
    path("banks/<slug:slug>/", views.bank, name="bank"),
    path("questions/<slug:slug>/", views.question, name="question"),
    path("search/", views.search_page, name="search"),
    path("api/banks/", views.api_banks, name="api-banks"),
]
