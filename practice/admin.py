from django.contrib import admin
from django.contrib.auth.models import Group
from django.db import models
from django.http import HttpRequest

from practice.admin_access import RoleAdmin
from practice.models import PracticeSettings, User
from practice.selectors import forget_practice_settings


@admin.register(User)
class UserAdmin(RoleAdmin):
    # Accounts are created by the invitation flow and the demo seed, not by hand here.
    manager_can = frozenset({"view"})
    therapist_can = frozenset()
    list_display = ("email", "name", "role", "is_active", "last_login")
    list_filter = ("role", "is_active")
    search_fields = ("email", "name")
    fields = ("email", "name", "role", "is_active", "is_staff", "last_login", "date_joined")
    readonly_fields = ("last_login", "date_joined")
    ordering = ("email",)


@admin.register(PracticeSettings)
class PracticeSettingsAdmin(RoleAdmin):
    manager_can = frozenset({"view", "change"})
    therapist_can = frozenset()
    formfield_overrides = {models.URLField: {"assume_scheme": "https"}}

    def save_model(
        self, request: HttpRequest, obj: PracticeSettings, form: object, change: bool
    ) -> None:
        super().save_model(request, obj, form, change)
        forget_practice_settings()


# Roles, not groups, decide access here (see practice.admin_access).
admin.site.unregister(Group)
