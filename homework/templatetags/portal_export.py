"""Drawn here, by the layer that knows what there is to download, so account views need not."""

from django import template

from homework import selectors
from homework.models import PreparedDownload
from homework.portal.export_forms import ExportChoiceForm
from homework.services.downloads import prepared_download_for

register = template.Library()


@register.simple_tag(takes_context=True)
def export_choice(context: template.Context) -> ExportChoiceForm:
    refused = context.get("export_form")
    if isinstance(refused, ExportChoiceForm):
        return refused
    assignments = selectors.assignments_for_export(user=context["request"].user)
    return ExportChoiceForm(assignments=assignments)


@register.simple_tag(takes_context=True)
def download_waiting(context: template.Context) -> PreparedDownload | None:
    return prepared_download_for(user=context["request"].user)
