"""Who can read what a client shares, worded once: naming the therapist alone would promise
a privacy the practice does not keep (the manager reads too)."""

from django.utils.translation import gettext_lazy as _

SHARED_IS_READ_BY = _("Your therapist and the practice manager can read what you share.")
PRIVATE_IS_SEEN_AS = _(
    "Only you can read this. Your therapist and the practice manager see that "
    "something is here, not what it says."
)
NOW_SHARED = _("Now shared: your therapist and the practice manager can read it.")
EACH_LOOK_NOTED = _("Each time someone at the practice looks, it is noted for you to see.")
