"""Who at the practice can read what a client shares, worded once for every
page that says so.

The practice manager can open every client's shared entries, as the
client's therapist can (clients.selectors.clients_for_user), and each look
is in the client's access log. A page that named the therapist alone would
promise a privacy the practice does not keep, so every page that says who
reads takes its words from here ({% load readers %} in templates).
"""

from django.utils.translation import gettext_lazy as _

# What the client has shared (sent, not kept private).
SHARED_IS_READ_BY = _("Your therapist and the practice manager can read what you share.")
# What the client keeps private: nobody at the practice reads the words.
PRIVATE_IS_SEEN_AS = _(
    "Only you can read this. Your therapist and the practice manager see that "
    "something is here, not what it says."
)
# Said when something becomes shared.
NOW_SHARED = _("Now shared: your therapist and the practice manager can read it.")
# Where the client finds out who has looked (clients.views.who_looked).
EACH_LOOK_NOTED = _("Each time someone at the practice looks, it is noted for you to see.")
