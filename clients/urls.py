from django.urls import path

from clients.contact import views as contact
from clients.views import account, invitations, sign_in, who_looked

app_name = "clients"

urlpatterns = [
    path("login/", sign_in.PortalLoginView.as_view(), name="login"),
    path("login/code/", sign_in.login_code, name="login_code"),
    path("login/lost-phone/", sign_in.login_lost_phone, name="login_lost_phone"),
    path("logout/", sign_in.logout_view, name="logout"),
    # The fixed addresses first: "sent" and "finish" are not invitation tokens.
    path("welcome/sent/", invitations.welcome_sent, name="welcome_sent"),
    path("welcome/finish/<str:token>/", invitations.welcome_finish, name="welcome_finish"),
    path("welcome/finish/", invitations.welcome_finish_confirm, name="welcome_finish_confirm"),
    path("welcome/<str:token>/", invitations.welcome, name="welcome"),
    path("welcome/", invitations.welcome_password, name="welcome_password"),
    path("password/reset/", sign_in.PortalPasswordResetView.as_view(), name="password_reset"),
    path(
        "password/reset/sent/",
        sign_in.PortalPasswordResetSentView.as_view(),
        name="password_reset_sent",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        sign_in.PortalPasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        sign_in.PortalPasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("account/", account.account, name="account"),
    path("account/who-looked/", who_looked.who_looked, name="who_looked"),
    path("account/contact/", contact.contact_page, name="contact"),
    path("account/contact/off/", contact.contact_turn_off, name="contact_off"),
    path("account/closed/", account.archived_page, name="closed"),
    path("account/password/", account.change_password, name="change_password"),
    path("account/language/", account.change_language, name="change_language"),
    path("account/two-step/", account.two_step_setup, name="two_step_setup"),
    path("account/two-step/off/", account.two_step_remove, name="two_step_remove"),
    path("account/two-step/codes/", account.recovery_codes_new, name="recovery_codes_new"),
    path("account/sign-out-everywhere/", account.log_out_everywhere, name="log_out_everywhere"),
    path("account/still-here/", account.stay_signed_in, name="stay_signed_in"),
    path("account/token/", account.form_token, name="form_token"),
    path("account/exit-note/", account.dismiss_exit_note, name="dismiss_exit_note"),
]
