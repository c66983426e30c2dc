"""Forms for the client's account pages. They validate; services write."""

from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.forms import SetPasswordForm as DjangoSetPasswordForm
from django.contrib.auth.password_validation import password_validators_help_texts
from django.utils.translation import gettext_lazy as _

from homework.kinds.fields import AccessibleBoundField
from practice.models import User
from practice.queue import enqueue_on_commit


class PortalForm(forms.Form):
    """Errors tied to their inputs (aria-describedby), as on the exercise forms."""

    bound_field_class = AccessibleBoundField


def _password_field(label: Any, autocomplete: str) -> forms.CharField:
    return forms.CharField(
        label=label,
        strip=False,
        max_length=4096,
        widget=forms.PasswordInput(attrs={"autocomplete": autocomplete}),
    )


class SetPasswordForm(PortalForm):
    """First visit from an invitation: the email to sign in with, and a password."""

    email = forms.EmailField(
        label=_("Email you will sign in with"),
        max_length=254,
        help_text=_("Use an address only you can read. It is never shown to anyone else here."),
        widget=forms.EmailInput(attrs={"autocomplete": "username"}),
    )
    password1 = _password_field(_("Choose a password"), "new-password")
    password2 = _password_field(_("The same password again"), "new-password")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password1"].help_text = " ".join(
            str(text) for text in password_validators_help_texts()
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", _("The two passwords are not the same. Try again."))
        return cleaned


class CodeForm(PortalForm):
    token = forms.CharField(
        label=_("The 6-digit code from your authenticator app"),
        max_length=12,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "spellcheck": "false"}
        ),
    )


class PasswordConfirmForm(PortalForm):
    password = _password_field(_("Your password"), "current-password")


class NeutralPasswordResetForm(PasswordResetForm):
    """Django's reset form, but the email is sent by a background task and says
    nothing clinical. Whether or not an account exists, the page that follows
    is the same, and (with a worker) so is the time it takes."""

    bound_field_class = AccessibleBoundField

    def save(self, *args: Any, **kwargs: Any) -> None:
        from clients.tasks import send_password_reset

        for user in self.get_users(self.cleaned_data["email"]):
            if isinstance(user, User):
                enqueue_on_commit(send_password_reset, user.pk, run_here_if_broker_down=True)


if TYPE_CHECKING:
    _SetPasswordBase = DjangoSetPasswordForm[User]
else:  # generic only to the type checker
    _SetPasswordBase = DjangoSetPasswordForm


class NewPasswordForm(_SetPasswordBase):
    """Choosing a new password from a reset link: plain help text, errors tied to fields."""

    bound_field_class = AccessibleBoundField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["new_password1"].help_text = " ".join(
            str(text) for text in password_validators_help_texts()
        )
