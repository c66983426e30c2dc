"""The support-network map: who is in my corner, and how close. People are a first name or nickname
only."""

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, ngettext_lazy, pgettext_lazy

from homework.kinds import charts
from homework.kinds.base import BRIEF, EarlierWanted, ExerciseKind, JSONDict, SummaryScope
from homework.kinds.fields import KindForm, choice, date, flag, multiple_choice, short_text
from homework.kinds.limits import NAMES_LIST_LIMIT, first_of
from homework.kinds.rows import RowSpec
from homework.kinds.shelves import Shelf
from homework.kinds.summaries import latest_per_assignment, parse_date
from practice.bidi import isolated_text

if TYPE_CHECKING:
    from homework.models import Assignment, Entry, Exercise

CIRCLES = [
    ("inner", gettext_lazy("Closest")),
    ("middle", pgettext_lazy("support circle", "Close")),
    ("outer", gettext_lazy("Around me")),
]
ROLES = [
    ("reality_check", gettext_lazy("I can ask them for a reality check")),
    ("warmth", gettext_lazy("Warmth and comfort")),
    ("practical_help", gettext_lazy("Practical help")),
    ("knows_the_real_story", gettext_lazy("Knows the real story")),
]
ROLE_SHORT = {
    "reality_check": gettext_lazy("reality check"),
    "warmth": gettext_lazy("warmth"),
    "practical_help": gettext_lazy("practical help"),
    "knows_the_real_story": gettext_lazy("knows the real story"),
}
MAX_PEOPLE = 50
MAX_PLACES = 30


class PersonForm(KindForm):
    name = short_text(
        gettext_lazy("First name or nickname"),
        required=True,
        max_length=40,
        help_text=gettext_lazy("A first name or a nickname is enough."),
    )
    # No circle is chosen for the client: a default put people where the client never placed them.
    circle = choice(gettext_lazy("How close are they?"), CIRCLES)
    old_page_defaults = {"circle": "middle"}
    roles = multiple_choice(gettext_lazy("What do they give you?"), ROLES)
    steadying = flag(gettext_lazy("Time with them leaves me steadier"))
    last_contact = date(gettext_lazy("When were you last in touch?"), not_future=True)


class PlaceForm(KindForm):
    name = short_text(
        gettext_lazy("A group, place or service"),
        required=True,
        max_length=80,
        help_text=gettext_lazy("For example a support group, a helpline, a class, a library."),
    )
    circle = choice(gettext_lazy("How close is it?"), CIRCLES)
    old_page_defaults = {"circle": "middle"}


class SupportNetworkForm(KindForm):
    row_specs = {
        "people": RowSpec(
            form_class=PersonForm,
            row_label=gettext_lazy("Person"),
            legend=gettext_lazy("People"),
            add_label=gettext_lazy("Add a person"),
            max_rows=MAX_PEOPLE,
            folds=True,
            too_many=ngettext_lazy(
                "You can list up to %(limit)s person here. If there are more, keep the ones who matter most right now.",
                "You can list up to %(limit)s people here. If there are more, keep the ones who matter most right now.",
                MAX_PEOPLE,
            ),
        ),
        "places_and_services": RowSpec(
            form_class=PlaceForm,
            row_label=gettext_lazy("Place"),
            legend=gettext_lazy("Groups, places and services"),
            add_label=gettext_lazy("Add a group, place or service"),
            max_rows=MAX_PLACES,
            folds=True,
            too_many=ngettext_lazy(
                "You can list up to %(limit)s place or service here. Keep the ones you would really use.",
                "You can list up to %(limit)s places and services here. Keep the ones you would really use.",
                MAX_PLACES,
            ),
        ),
    }


class SupportNetwork(ExerciseKind):
    slug = "support_network"
    label = gettext_lazy("Support-network map")
    shelf = Shelf.WORKSHEETS
    about = gettext_lazy("Who and where the client can turn to, and how close they are.")
    schema_version = 1
    form_class = SupportNetworkForm
    again_label = gettext_lazy("Update my map")
    continues_last_sent = True

    def initial(self, *, exercise: "Exercise", previous: "Entry | None" = None) -> JSONDict:
        if previous is None:
            return {}
        response = self.response_of(previous)
        return {key: list(response.get(key, [])) for key in ("people", "places_and_services")}

    def circles(self, response: JSONDict) -> list[JSONDict]:
        people = [p for p in response.get("people", []) if isinstance(p, dict)]
        places = [p for p in response.get("places_and_services", []) if isinstance(p, dict)]
        circles = [
            {
                "key": key,
                "label": label,
                "people": [
                    {
                        **person,
                        "role_labels": [
                            ROLE_SHORT[r] for r in person.get("roles", []) if r in ROLE_SHORT
                        ],
                        "last_contact_date": parse_date(person.get("last_contact")),
                    }
                    for person in people
                    if person.get("circle") == key
                ],
                "places": [place for place in places if place.get("circle") == key],
            }
            for key, label in CIRCLES
        ]
        for circle in circles:
            circle["in_words"] = _in_words(circle)
            circle["counted"] = _counted(circle)
        return circles

    def chart(self, circles: Sequence[JSONDict]) -> str:
        # The text alternative must say steadying and place too, or a screen reader hears only
        # names.
        description = "; ".join(
            f"{circle['label']}: " + (", ".join(circle["in_words"]) or _("no one yet"))
            for circle in circles
        )
        return charts.rings(
            circles=[
                charts.Ring(
                    label=str(circle["label"]),
                    dots=[
                        charts.Dot(p.get("name", ""), bool(p.get("steadying")))
                        for p in circle["people"]
                    ]
                    + [
                        charts.Dot(p.get("name", ""), True, is_place=True) for p in circle["places"]
                    ],
                )
                for circle in circles
            ],
            centre_label=_("Me"),
            title=_("Who is in my corner: the closest in the middle"),
            description=description,
        )

    def facts(self, response: JSONDict) -> JSONDict:
        people = [p for p in response.get("people", []) if isinstance(p, dict)]
        return {
            "reality_check": [
                p.get("name", "") for p in people if "reality_check" in p.get("roles", [])
            ],
            "steadying": [p.get("name", "") for p in people if p.get("steadying")],
            "people_count": len(people),
            "places_count": len(response.get("places_and_services", [])),
        }

    def present(self, entry: "Entry") -> JSONDict:
        response = self.response_of(entry)
        circles = self.circles(response)
        return {
            "response": response,
            "circles": circles,
            "chart": self.chart(circles),
            **self.facts(response),
        }

    def excerpt(self, entry: "Entry") -> str:
        circles = self.circles(self.response_of(entry))
        return _circle_counts(circles)

    def changes(self, latest: JSONDict, previous: JSONDict | None) -> list[str]:
        if previous is None:
            return []
        order = {key: position for position, (key, _label) in enumerate(CIRCLES)}
        before = {
            p.get("name", "").casefold(): p
            for p in previous.get("people", [])
            if isinstance(p, dict)
        }
        after = {
            p.get("name", "").casefold(): p for p in latest.get("people", []) if isinstance(p, dict)
        }
        changes = []
        for key, person in after.items():
            if key not in before:
                changes.append(
                    _("%(name)s added") % {"name": isolated_text(person.get("name", ""))}
                )
            elif person.get("circle") != before[key].get("circle"):
                closer = order.get(person.get("circle", ""), 0) < order.get(
                    before[key].get("circle", ""), 0
                )
                changes.append(
                    (_("%(name)s moved closer") if closer else _("%(name)s moved further out"))
                    % {"name": isolated_text(person.get("name", ""))}
                )
        for key, person in before.items():
            if key not in after:
                changes.append(
                    _("%(name)s no longer on the map")
                    % {"name": isolated_text(person.get("name", ""))}
                )
        return changes

    def summary_context(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> JSONDict:
        maps = []
        full_detail = scope.full_detail
        map_before = {entry.assignment_id: entry for entry in scope.earlier}
        for entry, previous_in_period in latest_per_assignment(entries):
            # A map shared late may be older than both, so compare with the one sent just before.
            earlier_maps = [
                m
                for m in (previous_in_period, map_before.get(entry.assignment_id))
                if m is not None
                and (m.submitted_at or m.created_at) < (entry.submitted_at or entry.created_at)
            ]
            previous = max(earlier_maps, key=lambda m: m.submitted_at or m.created_at, default=None)
            shown = self.present(entry)
            shown["changes"], shown["changes_more"] = first_of(
                self.changes(shown["response"], self.response_of(previous) if previous else None),
                full_detail=full_detail,
                limit=NAMES_LIST_LIMIT,
            )
            shown["has_previous"] = previous is not None
            for key in ("reality_check", "steadying"):
                shown[key], shown[f"{key}_more"] = first_of(
                    shown[key], full_detail=full_detail, limit=NAMES_LIST_LIMIT
                )
            shown["named_circles"] = [
                (
                    circle["label"],
                    *first_of(
                        [p.get("name", "") for p in circle["people"]]
                        + [
                            _("%(name)s (place or service)")
                            % {"name": isolated_text(p.get("name", ""))}
                            for p in circle["places"]
                        ],
                        full_detail=full_detail,
                        limit=NAMES_LIST_LIMIT,
                    ),
                )
                for circle in shown["circles"]
            ]
            maps.append({"entry": entry, **shown})
        return {"maps": maps, "full_detail": full_detail, "printed": [m["entry"] for m in maps]}

    def earlier_wanted(self) -> EarlierWanted:
        return EarlierWanted(Q())

    def at_a_glance(self, entries: Sequence["Entry"], scope: SummaryScope = BRIEF) -> list[str]:
        lines = []
        for entry, _previous in latest_per_assignment(entries):
            response = self.response_of(entry)
            facts = self.facts(response)
            reality_checks = len(facts["reality_check"])
            words = {
                "title": isolated_text(entry.assignment.exercise.title),
                "counts": _circle_counts(self.circles(response)),
                "n": reality_checks,
            }
            # No one ticked is a question left blank, not "0".
            lines.append(
                ngettext(
                    "%(title)s: %(counts)s; %(n)s for a reality check.",
                    "%(title)s: %(counts)s; %(n)s for a reality check.",
                    reality_checks,
                )
                % words
                if reality_checks
                else _("%(title)s: %(counts)s.") % words
            )
        return lines

    def progress_context(
        self, *, assignment: "Assignment", entries: Sequence["Entry"]
    ) -> JSONDict | None:
        if not entries:
            return None
        latest = entries[-1]
        return {"entry": latest, **self.present(latest)}


def _in_words(circle: JSONDict) -> list[str]:
    """A box left unticked says nothing, so only a tick is put into words."""
    return [
        _("%(name)s (steadying)") % {"name": isolated_text(p.get("name", ""))}
        if p.get("steadying")
        else isolated_text(p.get("name", ""))
        for p in circle["people"]
    ] + [
        _("%(name)s (a group, place or service)") % {"name": isolated_text(p.get("name", ""))}
        for p in circle["places"]
    ]


def _counted(circle: JSONDict) -> str:
    """Places count too, or the headline would read fewer than the ring shows."""
    people, places = len(circle["people"]), len(circle["places"])
    people_text = ngettext("%(n)s person", "%(n)s people", people) % {"n": people}
    places_text = ngettext("%(n)s place", "%(n)s places", places) % {"n": places}
    if people and places:
        return _("%(people)s and %(places)s") % {"people": people_text, "places": places_text}
    if places:
        return places_text
    return people_text if people else _("no one yet")


def _circle_counts(circles: Sequence[JSONDict]) -> str:
    return ", ".join(f"{str(c['label']).lower()}: {c['counted']}" for c in circles)


KIND = SupportNetwork()
