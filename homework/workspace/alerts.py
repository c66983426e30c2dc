"""Every open alert on one page, and acknowledging an alert from any page that shows it: the home
page, this list, the client's page and Since last session post here, and go back where they were."""

from django import forms
from django.contrib import messages
from django.contrib.admin import AdminSite
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseNotAllowed,
    HttpResponseRedirect,
)
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.models import ACKNOWLEDGEMENT_MAX_CHARS, Alert
from homework.selectors.alerts import open_alerts, staff_alert
from homework.services.alerts import (
    AlertAlreadyAcknowledged,
    alert_acknowledge,
    already_acknowledged,
)
from homework.workspace.reading import back_to
from practice.refusals import form_refused
from practice.requests import acting_user


class AlertAcknowledgeForm(forms.Form):
    # Checked by the service (services.alerts), so the admin and the API refuse alike.
    note = forms.CharField(
        label=gettext_lazy("What you did"),
        required=False,
        strip=True,
        widget=forms.TextInput(
            attrs={
                "maxlength": ACKNOWLEDGEMENT_MAX_CHARS,
                "placeholder": gettext_lazy("called, safe tonight"),
                "autocomplete": "off",
            }
        ),
    )


def open_alerts_view(request: HttpRequest, *, site: AdminSite) -> HttpResponse:
    """All of them, where the home page shows the first few: the same scope, waiting longest first."""
    context = {
        **site.each_context(request),
        "title": _("Alerts to acknowledge"),
        "alerts": list(open_alerts(user=acting_user(request))),
    }
    return TemplateResponse(request, "admin/homework/alert/open_list.html", context)


def alert_acknowledge_view(request: HttpRequest, alert_id: int, *, site: AdminSite) -> HttpResponse:
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    user = acting_user(request)
    try:
        alert = staff_alert(user=user, alert_id=alert_id)
    except Alert.DoesNotExist:
        raise Http404(_("No such alert.")) from None
    back = back_to(request, reverse("admin:clients_client_change", args=[alert.client_id]))
    form = AlertAcknowledgeForm(request.POST)
    form.is_valid()
    try:
        alert_acknowledge(alert=alert, by=user, note=form.cleaned_data.get("note", ""))
    except AlertAlreadyAcknowledged as taken:
        messages.warning(request, already_acknowledged(taken.alert))
        return HttpResponseRedirect(back)
    except PermissionDenied as refused:
        messages.error(request, str(refused))
        return HttpResponseRedirect(back)
    except ValidationError as refused:
        for message in refused.message_dict.get("note", refused.messages):
            form.add_error("note", message)
        context = {
            **site.each_context(request),
            "title": _("Your acknowledgement needs another look"),
            "alert": alert,
            "alert_form": form,
            "next": back,
        }
        return form_refused(
            request,
            TemplateResponse(request, "admin/homework/alert/acknowledge.html", context, status=400),
        )
    messages.success(request, _("Alert acknowledged. Your note is kept with it."))
    return HttpResponseRedirect(back)
