from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import Group
from django.db import models
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from practice import services
from practice.admin_access import RoleAdmin
from practice.languages import offered_languages
from practice.models import (
    IDLE_TIMEOUT_MINUTES,
    PracticeSettings,
    User,
    header_refusal,
    idle_timeout_out_of_range,
)
from practice.requests import acting_user
from practice.selectors import practice_settings


@admin.register(User)
class UserAdmin(RoleAdmin):
    # Accounts are created by the invitation flow and the demo seed, not by hand here.
    manager_can = frozenset({"view"})
    therapist_can = frozenset()
    instead_of_deleting = _(
        "Accounts are never deleted: the practice's records say who set, read and "
        "printed what, and clients can see who looked at their records."
    )
    list_display = ("email", "name", "role", "is_active", "last_login")
    list_filter = ("role", "is_active")
    search_fields = ("email", "name")
    fields = ("email", "name", "role", "is_active", "is_staff", "last_login", "date_joined")
    readonly_fields = ("last_login", "date_joined")
    ordering = ("email",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        # A client's sign-in address is theirs: the portal promises it is shown to no one here.
        return super().get_queryset(request).exclude(role=User.Role.CLIENT)


def _https_addresses(field: models.Field, **kwargs: Any) -> Any:  # type: ignore[type-arg]
    if isinstance(field, models.URLField):
        kwargs.setdefault("assume_scheme", "https")
    return field.formfield(**kwargs)


def crisis_field_name(language: str) -> str:
    return "crisis_resources_" + language.replace("-", "_")


def words_field_name(field: str, language: str) -> str:
    return f"{field}_{language.replace('-', '_')}"


# Kept as one form field per language (``__init__``), gathered again in ``clean``.
BY_LANGUAGE = (
    "crisis_resources_by_language",
    "reminder_sender_name_by_language",
    "reminder_subject_by_language",
)


def other_languages() -> list[tuple[str, str]]:
    """The offered languages beside the practice's own, whose lines are the main field."""
    return [(code, name) for code, name in offered_languages() if code != settings.LANGUAGE_CODE]


class PracticeSettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        given = self.instance.crisis_resources_by_language or {}
        for code, name in other_languages():
            self.fields[crisis_field_name(code)] = forms.CharField(
                label=_("Crisis resources for clients who read %(language)s") % {"language": name},
                required=False,
                initial=given.get(code, ""),
                widget=forms.Textarea(attrs={"rows": 6, "cols": 70, "lang": code}),
                help_text=_(
                    "One per line, in that language: the services that answer in it. "
                    "Left empty, these clients see the lines above."
                ),
            )
        for field, label in (
            ("reminder_sender_name", _("Sender name for clients who read %(language)s")),
            ("reminder_subject", _("Subject for clients who read %(language)s")),
        ):
            given = getattr(self.instance, f"{field}_by_language") or {}
            for code, name in other_languages():
                self.fields[words_field_name(field, code)] = forms.CharField(
                    label=label % {"language": name},
                    required=False,
                    max_length=getattr(self.fields[field], "max_length", None),
                    initial=given.get(code, ""),
                    widget=forms.TextInput(attrs={"lang": code, "size": 40}),
                    help_text=_("Left empty, these clients see “%(words)s”.")
                    % {"words": self.instance.reminder_words_unless_given(field, code)},
                )
        # A negative number would stop at the field's own ">= 0": say the range instead.
        for name in ("idle_timeout_minutes", "staff_idle_timeout_minutes"):
            self.fields[name].error_messages["min_value"] = idle_timeout_out_of_range()
        self.fields["contact_recheck_weeks"].error_messages["min_value"] = _(
            "Choose between 1 and 52 weeks."
        )
        self.fields["alert_escalate_after_hours"].error_messages["min_value"] = _(
            "Choose between 1 and 168 hours (a week)."
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        by_language = {
            code: text.strip()
            for code, _name in other_languages()
            if (text := cleaned.get(crisis_field_name(code)) or "").strip()
        }
        cleaned["crisis_resources_by_language"] = by_language
        for field in PracticeSettings.HEADER_FIELDS:
            words = {}
            for code, _name in other_languages():
                name = words_field_name(field, code)
                text = (cleaned.get(name) or "").strip()
                # Refused here, at its own field: the model's check would name no language.
                refusal = header_refusal(text) if text else None
                if refusal:
                    self.add_error(name, refusal)
                elif text:
                    words[code] = text
            cleaned[f"{field}_by_language"] = words
        for field in BY_LANGUAGE:
            if cleaned[field] != (getattr(self.instance, field) or {}):
                self.changed_data.append(field)
            setattr(self.instance, field, cleaned[field])
        return cleaned

    class Meta:
        model = PracticeSettings
        formfield_callback = _https_addresses
        fields = sorted(services.PRACTICE_SETTINGS_FIELDS - set(BY_LANGUAGE))
        widgets = {
            "idle_timeout_minutes": forms.NumberInput(
                attrs={"min": IDLE_TIMEOUT_MINUTES[0], "max": IDLE_TIMEOUT_MINUTES[1]}
            ),
            "staff_idle_timeout_minutes": forms.NumberInput(
                attrs={"min": IDLE_TIMEOUT_MINUTES[0], "max": IDLE_TIMEOUT_MINUTES[1]}
            ),
            "contact_recheck_weeks": forms.NumberInput(attrs={"min": 1, "max": 52}),
            "alert_escalate_after_hours": forms.NumberInput(attrs={"min": 1, "max": 168}),
            "summary_keep_days": forms.NumberInput(attrs={"min": 1, "max": 365}),
            "message_keep_days": forms.NumberInput(attrs={"min": 30, "max": 730}),
            "crisis_resources": forms.Textarea(attrs={"rows": 6, "cols": 70}),
            "practice_contact": forms.Textarea(attrs={"rows": 3, "cols": 70}),
        }
        error_messages = {
            "crisis_resources": {
                "required": _("Add at least one number or service a client can reach in a crisis.")
            },
        }
        help_texts = {
            "reminder_sender_name": _(
                "Shown as the sender of every reminder. A partner may see it: "
                "no clinical words (such as therapy, homework or abuse)."
            ),
            "reminder_subject": _("The subject of every reminder. Neutral, like the sender."),
            "idle_timeout_minutes": _(
                "A client who steps away from a shared device is signed out after this long."
            ),
        }


@admin.register(PracticeSettings)
class PracticeSettingsAdmin(RoleAdmin):
    manager_can = frozenset({"view", "change"})
    therapist_can = frozenset()
    form = PracticeSettingsForm
    instead_of_deleting = _(
        "The practice's settings are one page, kept for good: change them there."
    )
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}
    fieldsets = (
        (_("Your practice"), {"fields": ("name", "paper_size")}),
        (
            _("Reminders to clients"),
            {
                "description": _(
                    "Reminders never name an exercise or anything clinical. "
                    "These two lines are all a reader over the client's shoulder would see."
                ),
                "fields": (
                    "reminder_sender_name",
                    "reminder_subject",
                    *(
                        words_field_name(field, code)
                        for code, _name in other_languages()
                        for field in PracticeSettings.HEADER_FIELDS
                    ),
                    "contact_recheck_weeks",
                ),
            },
        ),
        (
            _("Safety on every portal page"),
            {
                "fields": (
                    "crisis_resources",
                    *(crisis_field_name(code) for code, _name in other_languages()),
                    "practice_contact",
                    "quick_exit_url",
                    "idle_timeout_minutes",
                )
            },
        ),
        (_("Staff sign-in"), {"fields": ("staff_idle_timeout_minutes",)}),
        (
            _("Email to therapists"),
            {"fields": ("weekly_digest", "alert_escalate_after_hours")},
        ),
        (_("How long things are kept"), {"fields": ("summary_keep_days", "message_keep_days")}),
    )

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> Any:
        # The per-language fields are the form's own, not the model's.
        kwargs["fields"] = PracticeSettingsForm.Meta.fields
        return super().get_form(request, obj, change, **kwargs)

    def changelist_view(
        self, request: HttpRequest, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        if not self.has_view_permission(request):
            return super().changelist_view(request, extra_context)
        row = practice_settings()
        return HttpResponseRedirect(
            reverse("admin:practice_practicesettings_change", args=[row.pk])
        )

    def save_model(
        self,
        request: HttpRequest,
        obj: PracticeSettings,
        form: "forms.ModelForm[PracticeSettings]",
        change: bool,
    ) -> None:
        changes = {
            name: form.cleaned_data[name]
            for name in form.changed_data
            if name in services.PRACTICE_SETTINGS_FIELDS
        }
        services.practice_settings_update(actor=acting_user(request), **changes)


admin.site.unregister(Group)
