"""Who may do what in the admin, in one place.

Therapists and managers are staff without Django's per-model permissions:
their role decides, and every queryset comes from a selector scoped by user.
"""

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
    """The admin's own answer to an object that is not there, or not yours:
    the same words and the same redirect, so the two cannot be told apart."""
    messages.warning(
        request,
        _("%(name)s with ID “%(key)s” doesn’t exist. Perhaps it was deleted?")
        % {"name": model_admin.opts.verbose_name, "key": object_id},
    )
    return HttpResponseRedirect(reverse("admin:index", current_app=model_admin.admin_site.name))


# The change form's hidden field: the object as stored when the form was drawn.
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
    """What the form shows of obj as stored (the same as a ModelForm's initial)."""
    meta = form._meta  # type: ignore[attr-defined]
    return {"pk": obj.pk, **model_to_dict(obj, meta.fields, meta.exclude)}


class RoleAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A ModelAdmin whose permissions follow roles, not Django's model perms.

    Subclasses say which operations each role has; object-level scoping comes
    from ``get_queryset``, which every subclass builds from a selector.
    """

    therapist_can: frozenset[str] = frozenset({"view"})
    manager_can: frozenset[str] = frozenset({"view"})
    # What to do instead of deleting one of these: said on the page a delete
    # address opens (see delete_view). No role deletes anything here.
    instead_of_deleting: Any = gettext_lazy(
        "Records here are kept: what clients wrote may matter to them later."
    )
    # On a narrow screen each row stacks its columns, each value beside its
    # column's name (templates/admin/change_list_results.html, css/admin.css):
    # for lists whose columns a phone cannot hold side by side.
    stacks_on_a_phone: bool = False
    # Filter counts cost a query per filter and grow with the list: off.
    show_facets = admin.ShowFacets.NEVER

    def _can(self, request: HttpRequest, action: str) -> bool:
        if is_manager(request):
            return action in self.manager_can
        return is_staff_member(request) and action in self.therapist_can

    def lookup_allowed(self, lookup: str, value: Any, request: HttpRequest | None = None) -> bool:
        """Filter a list only by what its sidebar and date bar offer.

        Django also accepts a query on any of the model's own fields, so a
        hand-made address could test a private entry's words one guess at a
        time (?response__icontains=…, the row shows up or not), or a
        password hash one character at a time (?password__startswith=…).
        A list filter's own parameter, and anything that names no field
        (which Django ignores), is left to Django's own rule.
        """
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
                pass  # a list filter's own parameter, such as ?client=
            else:
                return False
        return bool(super().lookup_allowed(lookup, value, request))

    def response_action(self, request: HttpRequest, queryset: QuerySet[Any]) -> HttpResponse | None:
        """A list action on the rows ticked, which the check boxes send as ids.

        Django hands the ids to the database as they came, and one that is no
        number (made by hand, or a form sent by something else) reached the
        action as a server error: as in an address, it is no row, and the
        action does nothing rather than act on only some of those asked for.
        """
        chosen = request.POST.getlist(ACTION_CHECKBOX_NAME)
        if any(parse_id(value) is None for value in chosen):
            self.message_user(
                request,
                _("Some of the chosen rows could not be found. Nothing was changed."),
                messages.WARNING,
            )
            return None  # the list again, with the message
        return super().response_action(request, queryset)

    # -- a stale tab cannot overwrite a newer save

    def stored_as(
        self, request: HttpRequest, obj: Model, form: type[forms.BaseForm], *, lock: bool = False
    ) -> str:
        """A fingerprint of obj as stored: the values its change form saves,
        its own and those of the rows its inlines show.

        With lock, obj is read again under a row lock (the change form's POST
        runs in a transaction), so of two saves at once the second waits and
        then sees the first; a row since deleted has no fingerprint.
        """
        if lock:
            found = type(obj)._base_manager.select_for_update().filter(pk=obj.pk).first()
            if found is None:
                return ""
            obj = found
        state: list[Any] = [_values(obj, form)]
        for formset, inline in self.get_formsets_with_inlines(request, obj):
            # The rows the inline draws, as its formset chooses them (a few of many, perhaps).
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
        """A change form that refuses to save over a newer save.

        Each form saves every field it holds, so a form opened before someone
        else's save (in another tab, or by another person) would silently put
        back what it showed. It carries the fingerprint it was drawn from (see
        render_change_form); if the object is no longer so, nothing is saved.
        A form without one (a tab from before this check) cannot be trusted
        either, and is refused the same way.
        """
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
                # Drawn again after a refusal: still the state it was opened
                # from, so saving it again is refused again until reloaded.
                context["opened_as"] = request.POST.get(OPENED_AS, "")
            else:
                form = type(context["adminform"].form)
                context["opened_as"] = self.stored_as(request, obj, form)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def delete_view(
        self, request: HttpRequest, object_id: str, extra_context: dict[str, Any] | None = None
    ) -> HttpResponse:
        """Nothing is deleted here, and a delete address says so.

        No role has "delete" (a client's words and everything they hang on
        are kept), so Django refused with the portal's own "not open" page,
        which tells a therapist to "ask your therapist" and names neither
        why nor what to do instead. This page does both, in the admin. It is
        the same for any id, so it tells no one whether the object exists.
        """
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
