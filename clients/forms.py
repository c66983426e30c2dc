"""Forms for the client's account pages. They validate; services write."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, PasswordResetForm
from django.contrib.auth.forms import SetPasswordForm as DjangoSetPasswordForm
from django.contrib.auth.password_validation import password_validators_help_texts
from django.utils.translation import gettext_lazy as _

from clients.password_resets import password_reset_allowed
from clients.services.accounts import api_tokens_revoke_all
from practice.form_messages import PortalFormMessages
from practice.languages import LanguageSelect, offered_languages
from practice.models import User
from practice.queue import enqueue_on_commit


class PortalForm(PortalFormMessages, forms.Form):
    """Errors tied to their inputs and said in the portal's words."""


class LanguageForm(PortalForm):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=offered_languages,
        widget=LanguageSelect,
        error_messages={
            "required": _("Choose a language."),
            "invalid_choice": _("Choose one of the languages offered here."),
        },
    )


PASSWORD_MISMATCH = _("The two passwords are not the same. Try again.")


def _ask_for_a_new_password(form: forms.BaseForm, first: str, second: str) -> None:
    form.fields[first].error_messages["required"] = _("Choose a password.")
    form.fields[second].error_messages["required"] = _("Type the same password a second time.")
    form.fields[first].help_text = " ".join(str(text) for text in password_validators_help_texts())


class PortalSignInForm(PortalFormMessages, AuthenticationForm):
    """A wrong email, a wrong password and a locked account get the same answer."""

    error_messages = {
        "invalid_login": _(
            "That email and password do not match. Check both and try again; "
            "capital letters count in the password. After several tries, "
            "signing in pauses for 15 minutes. If you have forgotten your "
            "password, you can set a new one (the link below)."
        ),
        "inactive": _("This account is closed. Your therapist can tell you more."),
    }


def _password_field(label: Any, autocomplete: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
    )


class PasswordTwiceForm(forms.Form):
    password1 = _password_field(_("Choose a password"), "new-password")
    password2 = _password_field(_("The same password again"), "new-password")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _ask_for_a_new_password(self, "password1", "password2")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", PASSWORD_MISMATCH)
        return cleaned


class SetPasswordForm(PortalForm, PasswordTwiceForm):
    email = forms.EmailField(
        label=_("Email you will sign in with"),
        max_length=254,
        help_text=_("Use an address only you can read. It is never shown to anyone else here."),
        widget=forms.EmailInput(attrs={"autocomplete": "username"}),
    )
    field_order = ["email", "password1", "password2"]


class CodeForm(PortalForm):
    token = forms.CharField(
        label=_("The 6-digit code from your authenticator app"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "spellcheck": "false"}
        ),
        error_messages={
            "required": _("Type the 6-digit code your app shows now."),
            "max_length": _("A code is 6 digits. Type the one your app shows now."),
        },
    )


class RecoveryCodeForm(PortalForm):
    code = forms.CharField(
        label=_("One of your recovery codes"),
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "off", "spellcheck": "false", "autocapitalize": "none"}
        ),
        error_messages={
            "required": _("Type one of your recovery codes."),
            "max_length": _("A recovery code is 8 letters and numbers. Check it and try again."),
        },
    )


class PasswordConfirmForm(PortalForm):
    password = _password_field(_("Your password"), "current-password")


class NeutralPasswordResetForm(PortalFormMessages, PasswordResetForm):
    """Sent by a worker, so neither the page nor its timing tells whether an account exists."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        from clients.tasks import send_password_reset

        email = self.cleaned_data["email"]
        if not password_reset_allowed(email=email):
            return
        for user in self.get_users(email):
            if isinstance(user, User):
                enqueue_on_commit(send_password_reset, user.pk, run_here_if_broker_down=True)


if TYPE_CHECKING:
    _SetPasswordBase = DjangoSetPasswordForm[User]
else:  # generic only to the type checker
    _SetPasswordBase = DjangoSetPasswordForm


class NewPasswordForm(PortalFormMessages, _SetPasswordBase):
    error_messages = {"password_mismatch": PASSWORD_MISMATCH}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _ask_for_a_new_password(self, "new_password1", "new_password2")

    def save(self, commit: bool = True) -> Any:
        user = super().save(commit=commit)
        # A reset is how someone takes an account back: no API token outlives it.
        api_tokens_revoke_all(user=user)
        return user


class ChangePasswordForm(PortalFormMessages, PasswordChangeForm):
    error_messages = {
        "password_incorrect": _("That password is not right."),
        "password_mismatch": PASSWORD_MISMATCH,
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        words = {
            "old_password": (
                _("Your current password"),
                _("Type the password you use now."),
                "current-password",
            ),
            "new_password1": (
                _("Your new password"),
                _("Choose a new password."),
                "new-password",
            ),
            "new_password2": (
                _("The new password again"),
                _("Type the new password a second time."),
                "new-password",
            ),
        }
        for name, (label, required, autocomplete) in words.items():
            # A huge paste is refused before hashing; no autofocus halfway down Settings.
            self.fields[name] = _password_field(label, autocomplete)
            self.fields[name].error_messages["required"] = required
        self.fields["new_password1"].help_text = " ".join(
            str(text) for text in password_validators_help_texts()
        )

    def clean_old_password(self) -> str:
        # Checked by services.user_change_password under its lock, so a double post is "done".
        return str(self.cleaned_data["old_password"])
