"""Start-up checks on the parts of every email the settings page cannot keep neutral."""

from email.utils import parseaddr
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register

from practice.discreet import clinical_words_in_address


@register(Tags.security)
def discreet_email_addresses(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """A warning, not a refusal: a practice may have no other domain, and must decide knowing it."""
    shown = {
        "DEFAULT_FROM_EMAIL": parseaddr(settings.DEFAULT_FROM_EMAIL)[1],
        "SITE_URL": urlsplit(settings.SITE_URL).hostname or "",
    }
    warnings: list[CheckMessage] = []
    for name, address in shown.items():
        found = clinical_words_in_address(address)
        if found:
            warnings.append(
                Warning(
                    f"{name} ({address}) contains “{found[0]}”: clients' emails show it, "
                    "and whoever reads their inbox can tell what the emails are about.",
                    hint="Use an address with neutral words, as for the sender name and subject.",
                    id="practice.W001",
                )
            )
    return warnings
