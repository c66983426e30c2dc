"""The version of an exercise a client reads (issue 39, part 3): the one rule, the assign form's
picker and its word before saving work in another language."""

import datetime as dt
import html
import re

import pytest
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.urls import reverse
from django.utils import timezone

from homework.models import Assignment, ClientProgram, Exercise, Program
from homework.selectors import client_today
from homework.selectors.library_languages import is_readable_in, version_in
from homework.selectors.programs import exercises_for_steps
from tests.conftest import login
from tests.factories import ClientFactory, ExerciseFactory
from tests.helpers import assignment_form
from tests.helpers_programs import build

ADD = "admin:homework_assignment_add"


@pytest.fixture
def harbour(cast):
    """An English exercise of the practice's, with its Spanish version."""
    english = ExerciseFactory.create(title="Harbour", language="en-gb")
    spanish = ExerciseFactory.create(title="Puerto", language="es", translation_of=english)
    return english, spanish


def reads_spanish(client):
    client.language = "es"
    client.save(update_fields=["language"])
    return client


# -- the rule -------------------------------------------------------------------------------


def test_an_exercise_in_the_language_is_its_own_version(cast, harbour):
    english, spanish = harbour
    assert version_in(spanish, "es", user=cast.tara) == spanish
    assert is_readable_in(spanish, "es") and not is_readable_in(english, "es")


def test_the_version_is_the_translation_the_source_or_a_sibling(cast, harbour):
    english, spanish = harbour
    assert version_in(english, "es", user=cast.tara) == spanish
    assert version_in(spanish, "en-gb", user=cast.tara) == english
    # Two translations of one source give each other (a third language, as a later one would be).
    other = ExerciseFactory.create(title="Hafen", language="es", translation_of=english)
    Exercise.objects.filter(pk=other.pk).update(language="de")
    other.refresh_from_db()
    assert version_in(other, "es", user=cast.tara) == spanish


def test_no_version_when_the_only_one_is_retired_or_another_therapists(cast):
    english = ExerciseFactory.create(title="Lighthouse", language="en-gb")
    ExerciseFactory.create(title="Faro", language="es", translation_of=english, is_active=False)
    theos = ExerciseFactory.create(
        title="Faro de Theo", language="es", translation_of=english, owner=cast.theo
    )
    assert version_in(english, "es", user=cast.tara) is None
    assert version_in(english, "es", user=cast.theo) == theos


# -- the picker -----------------------------------------------------------------------------


def offered(page_text: str) -> dict[str, list[str]]:
    picker = re.search(r'<select name="exercise".*?</select>', page_text, re.S)
    assert picker is not None
    return {
        html.unescape(label): [html.unescape(o) for o in re.findall(r"<option[^>]*>([^<]*)<", body)]
        for label, body in re.findall(
            r'<optgroup label="([^"]*)">(.*?)</optgroup>', picker.group(0), re.S
        )
    }


def test_the_picker_offers_a_spanish_reader_each_exercise_once_spanish_first(cast, harbour):
    reads_spanish(cast.alice)
    ExerciseFactory.create(title="Anchor", language="en-gb", owner=cast.tara)
    page = login(cast.tara).get(reverse(ADD) + f"?client={cast.alice.pk}")
    groups = offered(page.text)
    assert list(groups)[-1] == "In other languages"
    elsewhere = groups.pop("In other languages")
    shelved = " ".join(words for items in groups.values() for words in items)
    assert "Puerto — " in shelved
    # The English one with a Spanish version is not offered twice; one without is, named.
    assert not any(words.startswith("Harbour") for words in elsewhere)
    assert any(words.startswith("Anchor — ") and words.endswith("(English)") for words in elsewhere)
    assert any(words.startswith("PCL-5 — ") for words in elsewhere)
    assert "Anchor" not in shelved and "Harbour" not in shelved


def test_the_picker_for_an_english_reader_keeps_spanish_only_work_apart(cast, harbour):
    ExerciseFactory.create(title="Ancla", language="es", owner=cast.tara)
    groups = offered(login(cast.tara).get(reverse(ADD) + f"?client={cast.alice.pk}").text)
    shelved = " ".join(
        words for label, items in groups.items() for words in items if label != "In other languages"
    )
    assert "Harbour — " in shelved and "Puerto" not in shelved
    assert any(words.startswith("Ancla — ") for words in groups["In other languages"])
    assert not any(words.startswith("Puerto") for words in groups["In other languages"])


# -- the form says so before saving ---------------------------------------------------------


def assign(cast, exercise, **fields):
    return login(cast.tara).post(
        reverse(ADD), assignment_form(cast, cast.alice, exercise, **fields)
    )


def test_an_english_exercise_with_a_spanish_version_is_refused_naming_it(cast, harbour):
    english, _spanish = harbour
    reads_spanish(cast.alice)
    response = assign(cast, english)
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["exercise"] == [
        "Alice reads in Spanish. This exercise has a version in Spanish, “Puerto”: choose it, "
        "or tick “Assign it in English anyway”."
    ]
    assert 'type="checkbox" name="language_confirmed"' in response.text
    assert "Assign it in English anyway" in response.text
    assert not Assignment.objects.filter(exercise=english).exists()


def test_the_tick_assigns_it_in_english_anyway(cast, harbour):
    english, _spanish = harbour
    reads_spanish(cast.alice)
    response = assign(cast, english, language_confirmed="on")
    assert response.status_code == 302
    assert Assignment.objects.filter(exercise=english, client=cast.alice).exists()


def test_a_measure_with_no_translation_is_offered_in_english_only(cast):
    reads_spanish(cast.alice)
    pcl5 = Exercise.objects.get(title="PCL-5", owner=None)
    response = assign(cast, pcl5)
    assert response.context["adminform"].form.errors["exercise"] == [
        "The PCL-5 has no validated translation in Spanish: it is offered in English only. "
        "To use it, tick “Assign it in English anyway”."
    ]
    assert assign(cast, pcl5, language_confirmed="on").status_code == 302


def test_an_exercise_in_the_clients_language_needs_no_tick(cast, harbour):
    _english, spanish = harbour
    reads_spanish(cast.alice)
    page = login(cast.tara).get(reverse(ADD) + f"?client={cast.alice.pk}")
    # The tick is not there to tick unread: a hidden field, its row hidden.
    assert 'type="hidden" name="language_confirmed"' in page.text
    assert assign(cast, spanish).status_code == 302


def test_a_client_with_no_language_reads_the_practices(cast, harbour):
    english, spanish = harbour
    assert cast.alice.language == ""
    assert assign(cast, english).status_code == 302
    response = assign(cast, spanish)
    assert response.context["adminform"].form.errors["exercise"] == [
        "Alice reads in English. This exercise has a version in English, “Harbour”: choose it, "
        "or tick “Assign it in Spanish anyway”."
    ]


def test_several_clients_each_reader_of_another_language_named_one_tick_for_all(cast, harbour):
    english, _spanish = harbour
    reads_spanish(cast.alice)
    casey = ClientFactory.create(therapist=cast.tara, display_name="Casey")
    url = reverse("admin:clients_client_changelist")
    today = timezone.localdate()
    body = {
        "action": "assign_exercise",
        ACTION_CHECKBOX_NAME: [str(cast.alice.pk), str(casey.pk)],
        "apply": "1",
        "exercise": str(english.pk),
        "instructions": "",
        "schedule": "once",
        "starts_on": today.isoformat(),
        "due_on": (today + dt.timedelta(days=7)).isoformat(),
    }
    http = login(cast.tara)
    refused = http.post(url, body)
    assert refused.context["form"].errors["exercise"] == [
        "Alice reads in Spanish. This exercise has a version in Spanish, “Puerto”: choose it, "
        "or tick “Assign it in English anyway”."
    ]
    assert not Assignment.objects.filter(exercise=english).exists()
    http.post(url, {**body, "language_confirmed": "on"})
    assert {a.client for a in Assignment.objects.filter(exercise=english)} == {cast.alice, casey}


# -- programs -------------------------------------------------------------------------------


def assign_program_url(cast) -> str:
    return reverse("admin:clients_client_assign_program", args=[cast.alice.pk])


def test_programs_in_the_clients_language_come_first_the_others_named(cast):
    reads_spanish(cast.alice)
    Program.objects.create(title="Aaa first by title", owner=cast.tara)
    Program.objects.create(title="Zzz camino", owner=cast.tara, language="es")
    page = login(cast.tara).get(assign_program_url(cast))
    choices = [str(label) for _value, label in page.context["form"].fields["program"].choices][1:]
    assert choices.index("Zzz camino") < choices.index("Aaa first by title, in English")
    assert all(
        not label.endswith(", in English") for label in choices[: choices.index("Zzz camino")]
    )


def test_the_programs_list_shows_and_filters_by_language(cast):
    Program.objects.create(title="Camino", owner=cast.tara, language="es")
    Program.objects.create(title="Path", owner=cast.tara)
    listed = login(cast.tara).get(
        reverse("admin:homework_program_changelist") + "?language__exact=es"
    )
    titles = [program.title for program in listed.context["cl"].result_list]
    assert "Camino" in titles and "Path" not in titles


def test_a_program_in_another_language_waits_for_the_tick(cast):
    reads_spanish(cast.alice)
    program = build(cast.tara, ("right_away", None))
    body = {"program": program.pk, "starts_on": client_today(cast.alice).isoformat()}
    http = login(cast.tara)
    refused = http.post(assign_program_url(cast), body)
    assert refused.status_code == 400
    assert refused.context["form"].errors["program"] == [
        "Alice reads in Spanish. This program is in English: choose one in Spanish, or tick "
        "“Assign it in English anyway”."
    ]
    assert 'type="checkbox" name="language_confirmed"' in refused.content.decode()
    assert not ClientProgram.objects.filter(client=cast.alice).exists()
    assert (
        http.post(assign_program_url(cast), {**body, "language_confirmed": "on"}).status_code == 302
    )
    assert ClientProgram.objects.filter(client=cast.alice, program=program).exists()


# -- the exercise admin ---------------------------------------------------------------------

EXERCISE_ADD = "admin:homework_exercise_add"


def exercise_change(exercise) -> str:
    return reverse("admin:homework_exercise_change", args=[exercise.pk])


def test_the_library_list_shows_and_filters_by_language(cast, harbour):
    http = login(cast.tara)
    listed = http.get(reverse("admin:homework_exercise_changelist") + "?language__exact=es")
    titles = [exercise.title for exercise in listed.context["cl"].result_list]
    assert "Puerto" in titles and "Harbour" not in titles
    assert "Español" in listed.text


def test_an_exercise_links_its_versions_and_offers_the_languages_it_lacks(cast, harbour):
    english, spanish = harbour
    http = login(cast.tara)
    page = http.get(exercise_change(english))
    assert [v["exercise"] for v in page.context["versions"]] == [spanish]
    assert exercise_change(spanish) in page.text
    assert page.context["add_versions"] == []
    alone = ExerciseFactory.create(title="Anchor", owner=cast.tara)
    offered = http.get(exercise_change(alone)).context["add_versions"]
    assert [link["label"] for link in offered] == ["Add a version in Spanish"]


def test_add_a_version_opens_a_copy_in_that_language_theirs_to_save(cast):
    english = ExerciseFactory.create(
        title="Anchor", owner=cast.tara, therapist_note="When the pull is strong."
    )
    http = login(cast.tara)
    link = http.get(exercise_change(english)).context["add_versions"][0]["url"]
    form = http.get(link).context["adminform"].form
    assert {name: form.initial.get(name) for name in ("kind", "title", "language")} == {
        "kind": english.kind,
        "title": "Anchor",
        "language": "es",
    }
    assert form.initial["translation_of"] == english.pk
    saved = http.post(
        reverse(EXERCISE_ADD),
        {
            "kind": english.kind,
            "title": "Ancla",
            "language": "es",
            "translation_of": english.pk,
            "instructions": "Escríbelo pronto.",
            "therapist_note": "",
            "options": "{}",
            "is_active": "on",
        },
    )
    assert saved.status_code == 302
    spanish = Exercise.objects.get(title="Ancla")
    assert (spanish.language, spanish.translation_of, spanish.owner) == ("es", english, cast.tara)
    assert version_in(english, "es", user=cast.tara) == spanish


def test_a_version_of_one_they_cannot_see_starts_empty(cast):
    theirs = ExerciseFactory.create(title="Theo's anchor", owner=cast.theo)
    url = reverse(EXERCISE_ADD) + f"?translation_of={theirs.pk}&language=es"
    form = login(cast.tara).get(url).context["adminform"].form
    assert "translation_of" not in form.initial and form.initial.get("title") is None
    assert theirs not in form.fields["translation_of"].queryset


def test_a_version_is_of_an_exercise_in_another_language(cast, harbour):
    english, _spanish = harbour
    spanish = ExerciseFactory.create(title="Puerto", language="es", kind=english.kind)
    # The practice's exercise is read only for Tara: asked as the manager, who may change it.
    form = login(cast.morgan).get(exercise_change(english)).context["adminform"].form
    choices = form.fields["translation_of"].queryset
    assert spanish in choices and english not in choices
    assert not choices.filter(language="en-gb").exists()
    assert form.fields["translation_of"].label_from_instance(spanish) == "Puerto (Spanish)"


def test_a_new_exercise_is_in_the_language_its_author_reads(cast):
    cast.tara.language = "es"
    cast.tara.save(update_fields=["language"])
    form = login(cast.tara).get(reverse(EXERCISE_ADD)).context["adminform"].form
    assert form.initial["language"] == "es"
    cast.theo.language = ""
    cast.theo.save(update_fields=["language"])
    form = login(cast.theo).get(reverse(EXERCISE_ADD)).context["adminform"].form
    assert form.initial["language"] == "en-gb"


def test_a_copy_keeps_the_language_of_its_words(cast, harbour):
    _english, spanish = harbour
    login(cast.tara).post(reverse("admin:homework_exercise_copy", args=[spanish.pk]))
    assert Exercise.objects.get(owner=cast.tara, title="Puerto (copy)").language == "es"


def test_a_programs_step_picker_offers_its_own_languages_exercises_first(cast):
    program = Program.objects.create(title="Mi camino", owner=cast.tara, language="es")
    offered = list(exercises_for_steps(user=cast.tara, program=program))
    languages = [exercise.language for exercise in offered]
    assert "en-gb" in languages and languages == sorted(languages, key=lambda code: code != "es")


def selected_exercise(page) -> str | None:
    select = re.search(r'<select name="exercise".*?</select>', page.text, re.S)
    assert select is not None
    chosen = re.search(r'<option value="(\d+)"[^>]*selected', select.group(0))
    return chosen.group(1) if chosen else None


def test_the_refused_page_keeps_the_exercise_chosen_so_the_tick_can_be_used(cast, harbour):
    english, _spanish = harbour
    reads_spanish(cast.alice)
    refused = assign(cast, english)
    assert selected_exercise(refused) == str(english.pk)


def test_work_set_in_another_language_keeps_its_exercise_on_its_page(cast, harbour):
    english, _spanish = harbour
    reads_spanish(cast.alice)
    assign(cast, english, language_confirmed="on")
    work = Assignment.objects.get(exercise=english, client=cast.alice)
    page = login(cast.tara).get(reverse("admin:homework_assignment_change", args=[work.pk]))
    assert selected_exercise(page) == str(english.pk)


def test_a_version_is_refused_unless_it_gives_a_first_written_exercise_as_widely_shared(
    cast, harbour
):
    english, spanish = harbour
    private = ExerciseFactory.create(title="Theo's", language="en-gb", owner=cast.theo)
    worksheet = ExerciseFactory.create(title="Other kind", language="en-gb", kind="worksheet")
    refused = [
        Exercise(kind=english.kind, title="Kind", language="es", translation_of=worksheet),
        Exercise(kind=english.kind, title="Private", language="es", translation_of=private),
        Exercise(kind=english.kind, title="Chain", language="de", translation_of=spanish),
        Exercise(kind=english.kind, title="Same", language="en-gb", translation_of=english),
    ]
    for exercise in refused:
        assert exercise.version_refusal() is not None, exercise.title
    english.translation_of = ExerciseFactory.create(title="Source", language="es")
    assert english.version_refusal() is not None  # it has versions of its own
    theirs = Exercise(kind=private.kind, owner=cast.theo, language="es", translation_of=private)
    assert theirs.version_refusal() is None
    for exercise in Exercise.objects.exclude(translation_of=None):
        assert exercise.version_refusal() is None, exercise.title
