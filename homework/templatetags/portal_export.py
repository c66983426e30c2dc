"""The download's part of the client's account pages
(templates/clients/partials/export.html): drawn here, by the layer that knows
what there is to download, so that the account's views need not."""

from django import template

from homework import selectors
from homework.models import PreparedDownload
from homework.portal.export_forms import ExportChoiceForm
from homework.services.downloads import prepared_download_for

register = template.Library()


@register.simple_tag(takes_context=True)
def export_choice(context: template.Context) -> ExportChoiceForm:
    """The choice refused a moment ago (homework.portal.export_views.export_pdf
    sends it back), or a fresh one of every exercise with anything sent."""
    refused = context.get("export_form")
    if isinstance(refused, ExportChoiceForm):
        return refused
    assignments = selectors.assignments_for_export(user=context["request"].user)
    return ExportChoiceForm(assignments=assignments)


@register.simple_tag(takes_context=True)
def download_waiting(context: template.Context) -> PreparedDownload | None:
    """The client's PDF being prepared or ready, to go back to from their settings."""
    return prepared_download_for(user=context["request"].user)
