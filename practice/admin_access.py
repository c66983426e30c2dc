"""Who may do what in the admin: the role decides, not Django's per-model permissions."""

import hashlib
import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Model, QuerySet
from django.db.models.constants import LOOKUP_SEP
from django.forms.models import model_to_dict
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from practice.models import User
from practice.requests import acting_user, parse_id
from practice.roles import is_acting_manager


def is_staff_member(request: HttpRequest) -> bool:
    user = request.user
    return isinstance(user, User) and user.is_active and user.is_staff and not user.is_client


def is_manager(request: HttpRequest) -> bool:
    return is_staff_member(request) and is_acting_manager(acting_user(request))


def not_found(
    model_admin: "admin.ModelAdmin[Any]", request: HttpRequest, object_id: str
) -> HttpResponse:
    """The same answer for missing and not yours, so the two cannot be told apart."""
    messages.warning(
        request,
        _("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?")
        % {"name": model_admin.opts.verbose_name, "key": object_id},
    )
    return HttpResponseRedirect(reverse("admin:index", current_app=model_admin.admin_site.name))


OPENED_AS = "_opened_as"
CHANGED_ELSEWHERE = gettext_lazy(
    "This was changed elsewhere (another tab or person) since you opened it. "
    "Nothing was saved: reload to see the latest, then make your change again."
)


class _StoredValues(DjangoJSONEncoder):
    def default(self, o: Any) -> Any:
        if isinstance(o, Model):  # a many-to-many field's rows
            return o.pk
        return super().default(o)


def _values(obj: Model, form: type[forms.BaseForm]) -> dict[str, Any]:
    meta = form._meta  # type: ignore[attr-defined]
    return {"pk": obj.pk, **model_to_dict(obj, meta.fields, meta.exclude)}


class RoleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    therapist_can: frozenset[str] = frozenset({"view"})
    manager_can: frozenset[str] = frozenset({"view"})
    # Said on the page a delete address opens: no role deletes anything here.
    instead_of_deleting: Any = gettext_lazy(
        "Records here are kept: what clients wrote may matter to them later."
    )
    stacks_on_a_phone: bool = False
    # Filter counts cost a query per filter and grow with the list: off.
    show_facets = admin.ShowFacets.NEVER

    def _can(self, request: HttpRequest, action: str) -> bool:
        if is_manager(request):
            return action in self.manager_can
        return is_staff_member(request) and action in self.therapist_can

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        """Only what the filters offer: a field lookup in the URL could guess private words."""
        paths = [self.date_hierarchy] if self.date_hierarchy else []
        own_parameters = set()
        list_filter = self.get_list_filter(request) if request is not None else self.list_filter
        for item in list_filter:
            if isinstance(item, str):
                paths.append(item)
            elif isinstance(item, (list, tuple)) and isinstance(item[0], str):
                paths.append(item[0])
            elif isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                own_parameters.add(item.parameter_name)
        offered = lookup in own_parameters or any(
            lookup == path or lookup.startswith(path + LOOKUP_SEP) for path in paths
        )
        if not offered:
            try:
                self.model._meta.get_field(lookup.split(LOOKUP_SEP, 1)[0])
            except FieldDoesNotExist:
                pass
            else:
                return False
        return bool(super().lookup_allowed(lookup, value, request))

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        """An id that is no number is no row: the action does nothing rather than fail."""
        chosen = request.POST.getlist(ACTION_CHECKBOX_NAME)
        if any(parse_id(value) is None for value in chosen):
            self.message_user(
                request,
                _("Some of the chosen rows could not be found. Nothing was changed."),
                messages.WARNING,
            )
            return None
        return super().response_action(request, queryset)

    def stored_as(
        self, request: HttpRequest, obj: Model, form: type[forms.BaseForm], *, lock: bool = False
    ) -> str:
        """Locked, so of two saves at once the second waits and then sees the first."""
        if lock:
            found = type(obj)._base_manager.select_for_update().filter(pk=obj.pk).first()
            if found is None:
                return ""
            obj = found
        state: list[Any] = [_values(obj, form)]
        for formset, inline in self.get_formsets_with_inlines(request, obj):
            rows = formset(instance=obj, queryset=inline.get_queryset(request)).get_queryset()
            state.append(
                sorted(
                    (_values(row, formset.form) for row in rows), key=lambda values: values["pk"]
                )
            )
        stored = json.dumps(state, cls=_StoredValues, sort_keys=True)
        return hashlib.sha256(stored.encode()).hexdigest()

    def get_form(
        self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any
    ) -> "type[forms.ModelForm[Any]]":
        """A form opened before another save would silently put back what it showed."""
        form = super().get_form(request, obj, change, **kwargs)
        if not change or obj is None:
            return form
        model_admin = self

        class ChangeForm(form):  # type: ignore[misc,valid-type]
            def clean(self) -> Any:
                opened_as = self.data.get(OPENED_AS)
                stored = model_admin.stored_as(request, self.instance, type(self), lock=True)
                if opened_as != stored:
                    raise ValidationError(CHANGED_ELSEWHERE, code="changed_elsewhere")
                return super().clean()

        ChangeForm.__name__ = form.__name__
        return ChangeForm

    def render_change_form(
        self,
        request: HttpRequest,
        context: dict[str, Any],
        add: bool = False,
        change: bool = False,
        form_url: str = "",
        obj: Model | None = None,
    ) -> Any:
        if change and obj is not None and self.has_change_permission(request, obj):
            if request.method == "POST":
                # After a refusal it keeps the state it was opened from, so it is refused again.
                context["opened_as"] = request.POST.get(OPENED_AS, "")
            else:
                form = type(context["adminform"].form)
                context["opened_as"] = self.stored_as(request, obj, form)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Nothing is deleted here (kept for clients), the same page for any id."""
        if self._can(request, "delete"):
            return super().delete_view(request, object_id, extra_context)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Nothing is deleted here"),
            "instead": self.instead_of_deleting,
        }
        return TemplateResponse(request, "admin/cannot_delete.html", context, status=403)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._can(request, "view")

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._can(request, "view") or self._can(request, "change")

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return self._can(request, "add")

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._can(request, "change")

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._can(request, "delete")
