"""Which version of an exercise or program a person reads: one rule, which the assign forms, the
library picker and the API all call, so none of them decides it differently."""

from dataclasses import dataclass

from django.db.models import (
    Case,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)
from django.utils.translation import get_language_info, gettext_lazy
from django.utils.translation import gettext as _

from clients.models import Client
from homework.kinds import get_kind
from homework.kinds.shelves import Shelf
from homework.models import Exercise, Program
from homework.selectors.scoping import exercises_for_user
from practice.languages import language_or_default
from practice.models import User

# Named in the reader's own language inside a sentence ("reads in Spanish"), unlike the language
# menus, which name each language in itself.
LANGUAGE_NAMES = {"en-gb": gettext_lazy("English"), "es": gettext_lazy("Spanish")}


def language_name(code: str) -> str:
    if code in LANGUAGE_NAMES:
        return str(LANGUAGE_NAMES[code])
    return str(get_language_info(code)["name_translated"])


def reading_language(client: Client) -> str:
    return language_or_default(client.language)


def _same_as_outer() -> Q:
    """Rows giving the same exercise as the outer query's row: its translations, its source, and
    its source's other translations (versions_of says the same for one exercise)."""
    pk, source = OuterRef("pk"), OuterRef("translation_of")
    return (
        Q(translation_of=pk) | Q(pk=source) | Q(translation_of=source, translation_of__isnull=False)
    )


def with_version_in(
    exercises: QuerySet[Exercise], language: str, *, among: QuerySet[Exercise]
) -> QuerySet[Exercise]:
    """Each exercise annotated ``version_pk``: itself when it is in ``language``, else the oldest
    row of ``among`` giving it in ``language``, else None. One query, however many rows."""
    versions = (
        among.filter(language=language).filter(_same_as_outer()).order_by("pk").values("pk")[:1]
    )
    return exercises.annotate(
        version_pk=Case(
            When(language=language, then="pk"),
            default=Subquery(versions),
            output_field=IntegerField(),
        )
    )


def offered_versions(*, user: User) -> QuerySet[Exercise]:
    """What a version may be: an exercise the person may assign."""
    return exercises_for_user(user=user).filter(is_active=True)


def version_in(exercise: Exercise, language: str, *, user: User) -> Exercise | None:
    """The version of ``exercise`` in ``language`` ``user`` may assign: the exercise itself if it
    is in that language, else its translation, source or sibling in it; None if there is none."""
    if is_readable_in(exercise, language):
        return exercise
    among = offered_versions(user=user)
    found = with_version_in(Exercise.objects.filter(pk=exercise.pk), language, among=among)
    return among.filter(pk__in=found.values("version_pk")).first()  # type: ignore[misc]


def versions_of(exercise: Exercise, *, user: User) -> QuerySet[Exercise]:
    """Every other row ``user`` may see that gives ``exercise`` in some language, retired too."""
    same = Q(translation_of=exercise.pk)
    if exercise.translation_of_id is not None:
        same |= Q(pk=exercise.translation_of_id) | Q(translation_of=exercise.translation_of_id)
    return exercises_for_user(user=user).filter(same).exclude(pk=exercise.pk)


def is_readable_in(exercise: Exercise, language: str) -> bool:
    return exercise.language == language


@dataclass(frozen=True)
class LanguageWarning:
    """What an assign form says before saving work the client would read in another language."""

    message: str
    confirm_label: str


def _confirm_label(language: str) -> str:
    return _("Assign it in %(language)s anyway") % {"language": language_name(language)}


def exercise_language_warning(
    exercise: Exercise, client: Client, *, user: User
) -> LanguageWarning | None:
    """None when the client reads the exercise's language."""
    reads = reading_language(client)
    if is_readable_in(exercise, reads):
        return None
    words = {
        "client": client.display_name,
        "reads": language_name(reads),
        "written": language_name(exercise.language),
        "title": exercise.title,
    }
    confirm = _confirm_label(exercise.language)
    version = version_in(exercise, reads, user=user)
    if version is not None:
        message = _(
            "%(client)s reads in %(reads)s. This exercise has a version in %(reads)s, "
            "“%(title)s”: choose it, or tick “%(confirm)s”."
        ) % {**words, "title": version.title, "confirm": confirm}
    elif get_kind(exercise.kind).shelf_of(exercise) == Shelf.MEASURES:
        # Only a published, validated translation of a measure may be used (CLINICAL.md).
        message = _(
            "The %(title)s has no validated translation in %(reads)s: it is offered in "
            "%(written)s only. To use it, tick “%(confirm)s”."
        ) % {**words, "confirm": confirm}
    else:
        message = _(
            "%(client)s reads in %(reads)s. This exercise is in %(written)s and has no version "
            "in %(reads)s yet: choose another, or tick “%(confirm)s”."
        ) % {**words, "confirm": confirm}
    return LanguageWarning(message=message, confirm_label=confirm)


def program_language_warning(program: Program, client: Client) -> LanguageWarning | None:
    reads = reading_language(client)
    if program.language == reads:
        return None
    confirm = _confirm_label(program.language)
    message = _(
        "%(client)s reads in %(reads)s. This program is in %(written)s: choose one in "
        "%(reads)s, or tick “%(confirm)s”."
    ) % {
        "client": client.display_name,
        "reads": language_name(reads),
        "written": language_name(program.language),
        "confirm": confirm,
    }
    return LanguageWarning(message=message, confirm_label=confirm)


def reader_language_first(language: str) -> Case:
    """An ordering key: what is in ``language`` before the rest."""
    return Case(
        When(language=language, then=Value(0)), default=Value(1), output_field=IntegerField()
    )
