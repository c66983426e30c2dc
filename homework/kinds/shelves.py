"""The library's shelves: what kind of thing each exercise is, in the order the picker shows them."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Shelf(models.TextChoices):
    READINGS = "readings", _("Readings")
    WORKSHEETS = "worksheets", _("Worksheets")
    LOGS = "logs", _("Logs and trackers")
    MEASURES = "measures", _("Standard measures")
    SAFETY = "safety", _("Safety")


SHELF_ORDER = list(Shelf)
