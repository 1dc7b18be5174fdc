from django.contrib.auth import views as auth_views
from django.urls import path

from . import accounts

# Django's own login and logout views (so anything hooked into authenticate() applies), no namespace:
# "login" and "logout" are the names Django and its admin expect.
urlpatterns = [
    path("register/", accounts.register, name="register"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
]
