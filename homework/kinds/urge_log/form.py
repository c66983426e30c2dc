"""The urge log's form: when, how strong, what set it off, what the client
did with it, and whether there was contact."""

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from homework.kinds.fields import KindForm, choice, flag, long_text, scale, short_text, when

TRIGGERS = [
    ("message", gettext_lazy("A message or call from them")),
    ("memory", gettext_lazy("A memory")),
    ("loneliness", gettext_lazy("Feeling lonely")),
    ("date_or_anniversary", gettext_lazy("A date or an anniversary")),
    ("saw_them", gettext_lazy("I saw them")),
    ("other", gettext_lazy("Something else")),
]
INITIATED_BY = [
    ("none", gettext_lazy("There was no contact")),
    ("me", gettext_lazy("I reached out")),
    ("them", gettext_lazy("They reached out")),
]
# In the therapist's summary, where "I" and "they" would be unclear.
INITIATED_FOR_THERAPIST = {
    "me": gettext_lazy("the client reached out"),
    "them": gettext_lazy("the other person reached out"),
}


class UrgeLogForm(KindForm):
    at = when(gettext_lazy("When was this?"))
    intensity = scale(
        gettext_lazy("How strong was the pull?"),
        legend=gettext_lazy("(0 = barely there, 10 = overwhelming)"),
        low=gettext_lazy("barely there"),
        high=gettext_lazy("overwhelming"),
    )
    trigger = choice(
        gettext_lazy("What set it off?"),
        TRIGGERS,
        help_text=gettext_lazy("If you are not sure, “Something else” is fine."),
    )
    trigger_note = short_text(gettext_lazy("Anything you want to add about what set it off?"))
    did_instead = long_text(
        gettext_lazy("What did you do with the urge?"),
        help_text=gettext_lazy("Anything counts: waiting, calling a friend, going for a walk."),
    )
    contact_happened = flag(gettext_lazy("There was contact between us"))
    # No answer is chosen for the client: a default would reach the therapist as theirs
    # (CLINICAL.md, Honesty).
    contact_initiated_by = choice(
        gettext_lazy("Was there contact? If there was, who reached out first?"),
        INITIATED_BY,
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        by = cleaned.get("contact_initiated_by")
        # Contact is whatever the portal's one answer says; a post that sends both must agree.
        if self.add_prefix("contact_happened") not in self.data:
            cleaned["contact_happened"] = by in {"me", "them"}
        happened = cleaned.get("contact_happened")
        if happened and by == "none":
            self.add_error("contact_initiated_by", _("Who reached out first? Either answer is OK."))
        elif not happened and by in {"me", "them"}:
            self.add_error(
                "contact_initiated_by",
                _("“There was contact” is not ticked. Tick it, or choose “There was no contact”."),
            )
        return cleaned
