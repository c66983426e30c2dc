from django.urls import path

from clients import views

app_name = "clients"

urlpatterns = [
    path("login/", views.PortalLoginView.as_view(), name="login"),
    path("login/code/", views.login_code, name="login_code"),
    path("logout/", views.logout_view, name="logout"),
    path("welcome/<str:token>/", views.welcome, name="welcome"),
    path("welcome/", views.welcome_password, name="welcome_password"),
    path("password/reset/", views.PortalPasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        views.PortalPasswordResetSentView.as_view(),
        name="password_reset_sent",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.PortalPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        views.PortalPasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("account/", views.account, name="account"),
    path("account/closed/", views.notebook_closed, name="closed"),
    path("account/password/", views.change_password, name="change_password"),
    path("account/two-step/", views.two_step_setup, name="two_step_setup"),
    path("account/two-step/off/", views.two_step_remove, name="two_step_remove"),
    path("account/sign-out-everywhere/", views.log_out_everywhere, name="log_out_everywhere"),
    path("account/still-here/", views.stay_signed_in, name="stay_signed_in"),
    path("account/token/", views.form_token, name="form_token"),
    path("account/exit-note/", views.dismiss_exit_note, name="dismiss_exit_note"),
]
