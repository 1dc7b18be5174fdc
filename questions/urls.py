from django.urls import path

from . import mock_views, views

app_name = "questions"
urlpatterns = [
    path("", views.home, name="home"),
    path("banks/<slug:slug>/", views.bank, name="bank"),
    path("questions/<slug:slug>/", views.question, name="question"),
    path("search/", views.search_page, name="search"),
    path("api/banks/", views.api_banks, name="api-banks"),
    path("mock/", mock_views.setup, name="mock"),
    path("mock/<int:number>/", mock_views.step, name="mock-step"),
    path("mock/summary/", mock_views.summary, name="mock-summary"),
]
