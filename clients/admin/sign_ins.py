"""Refused sign-ins and current lockouts in the admin, with a way to let one in early."""

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import Resolver404, resolve
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from clients import lockout, services
from clients.models import SignInFailure, SignInLock
from clients.selectors import sign_in_failures_for_staff, sign_in_locks_for_staff
from practice.admin_access import RoleAdmin
from practice.requests import acting_user

# Where a password is checked, by the route's name (clients.lockout lists them).
PAGES = {
    "clients:login": _("Portal sign-in"),
    "admin:login": _("Admin sign-in"),
    "clients:change_password": _("Changing the password"),
    "clients:two_step_remove": _("Turning off two-step sign-in"),
}


def page_of(path_info: str) -> str:
    """The page a try was made on, in words; its path if it is none of ours."""
    try:
        name = resolve(path_info).view_name
    except Resolver404:
        return path_info
    return str(PAGES.get(name, path_info))


class LockedOutFilter(admin.SimpleListFilter):
    """Tries refused because the account or address was locked, or the others."""

    title = _("locked out")
    parameter_name = "locked"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Locked out")), ("no", _("Wrong password only"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(locked_out=True)
        if self.value() == "no":
            return queryset.filter(locked_out=False)
        return queryset


class SignInAdmin(RoleAdmin):
    therapist_can: frozenset[str] = frozenset()
    manager_can = frozenset({"view"})
    instead_of_deleting = _(
        "Sign-in records are kept: they show who tried to sign in, and from where."
    )
    stacks_on_a_phone = True
    search_fields = ("username",)
    search_help_text = _("Search by the sign-in name tried.")
    list_per_page = 100

    @admin.display(description=_("page"))
    def page(self, row: SignInFailure | SignInLock) -> str:
        return page_of(row.path_info)

    @admin.display(description=_("sign-in name"), ordering="username")
    def sign_in_name(self, row: SignInFailure | SignInLock) -> str:
        return row.username or "—"

    @admin.display(description=_("address"), ordering="ip_address")
    def address(self, row: SignInFailure | SignInLock) -> str:
        return row.ip_address or "—"


@admin.register(SignInFailure)
class SignInFailureAdmin(SignInAdmin):
    list_display = ("attempt_time", "sign_in_name", "address", "page", "was_locked_out")
    list_filter = (LockedOutFilter,)
    date_hierarchy = "attempt_time"
    actions = None  # nothing is changed or deleted here
    fields = ("attempt_time", "sign_in_name", "address", "page", "was_locked_out", "user_agent")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[SignInFailure]:
        return sign_in_failures_for_staff(user=acting_user(request))

    @admin.display(description=_("locked out"), boolean=True, ordering="locked_out")
    def was_locked_out(self, row: SignInFailure) -> bool:
        return bool(row.locked_out)


@admin.register(SignInLock)
class SignInLockAdmin(SignInAdmin):
    manager_can = frozenset({"view", "lift"})
    list_display = ("sign_in_name", "address", "failures", "attempt_time", "locked_until", "page")
    actions = ("lift",)
    fields = ("sign_in_name", "address", "failures", "attempt_time", "locked_until", "page")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[SignInLock]:
        return sign_in_locks_for_staff(user=acting_user(request))

    def has_lift_permission(self, request: HttpRequest) -> bool:
        return self._can(request, "lift")

    @admin.display(description=_("failures"))
    def failures(self, row: SignInLock) -> int:
        return int(getattr(row, "pair_failures", None) or row.failures_since_start)

    @admin.display(description=_("locked until"))
    def locked_until(self, row: SignInLock) -> Any:
        return timezone.localtime(row.attempt_time + lockout.COOL_OFF)

    @admin.action(description=_("Let them sign in again now"), permissions=["lift"])
    def lift(self, request: HttpRequest, queryset: QuerySet[SignInLock]) -> None:
        lifted = 0
        for lock in queryset:
            services.sign_in_lock_lift(actor=acting_user(request), lock=lock)
            lifted += 1
        if not lifted:  # ended on their own since the list was drawn
            self.message_user(
                request, _("Those locks had already ended. Nothing was changed."), messages.INFO
            )
            return
        self.message_user(
            request,
            ngettext(
                "%(count)d lock lifted: the next right password from there signs in.",
                "%(count)d locks lifted: the next right password from each signs in.",
                lifted,
            )
            % {"count": lifted},
            messages.SUCCESS,
        )
