from django.urls import path

from clients import views

app_name = "clients"

urlpatterns = [
    path("login/", views.PortalLoginView.as_view(), name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("exit/", views.quick_exit, name="quick_exit"),
]
