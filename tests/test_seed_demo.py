from django.core.management import call_command

from clients.models import Client, Session
from homework.models import Assignment, Entry, Exercise, Program
from practice.models import User


def counts():
    return [m.objects.count() for m in (User, Client, Session, Exercise, Assignment, Entry)]


def test_seed_demo_builds_the_practice_and_is_idempotent(db, capsys):
    call_command("seed_demo")
    first = counts()
    call_command("seed_demo")
    assert counts() == first
    out = capsys.readouterr().out
    for login in (
        "therapist@demo.test",
        "manager@demo.test",
        "alex@demo.test",
        "sam@demo.test",
        "terapeuta@demo.test",
        "lucia@demo.test",
    ):
        assert login in out
    assert "demo-pass-2026" in out
    alex = Client.objects.get(portal_user__email="alex@demo.test")
    assert alex.portal_user is not None
    assert alex.portal_user.check_password("demo-pass-2026")
    assert Entry.objects.filter(assignment__client=alex, status="submitted").count() >= 3
    assert alex.sessions.filter(starts_at__date__gt=alex.created_at.date()).exists()


def test_seed_demo_takes_a_password(db):
    call_command("seed_demo", password="another-long-pass")
    assert User.objects.get(email="therapist@demo.test").check_password("another-long-pass")


def test_seed_demo_gives_alex_every_kind_and_an_urge_log_that_eases(db):
    from homework.kinds import all_kinds, get_kind

    call_command("seed_demo")
    alex = Client.objects.get(portal_user__email="alex@demo.test")
    sent = Entry.objects.filter(assignment__client=alex, status="submitted").select_related(
        "assignment__exercise"
    )
    assert {entry.assignment.exercise.kind for entry in sent} == {k.slug for k in all_kinds()}
    urges = [e for e in sent if e.assignment.exercise.title == "30 days of no contact"]
    assert len({e.occurrence_on for e in urges}) == 21
    lines = get_kind("urge_log").at_a_glance(urges)
    assert any(line.startswith("Urges easing") for line in lines)
    # The library's own exercise is reused, not a copy of it.
    assert Exercise.objects.filter(title="Keep the full picture").count() == 1


def test_seed_demo_on_an_emptied_library_brings_it_back(db):
    Program.objects.all().delete()  # its steps hold library exercises
    Exercise.objects.all().delete()
    call_command("seed_demo")
    assert Exercise.objects.filter(title="30 days of no contact").exists()


def test_seed_demo_entries_were_begun_and_last_saved_by_the_time_they_were_sent(db):
    # Each demo entry is dated to its day, but its start and last save kept
    # the moment the command ran: "download my data" showed an entry begun
    # on 1 December and sent on 12 November.
    from django.db.models import F

    call_command("seed_demo")
    sent = Entry.objects.filter(status="submitted")
    assert sent.exists()
    assert not sent.filter(created_at__gt=F("submitted_at")).exists()
    assert not sent.filter(updated_at__gt=F("submitted_at")).exists()


def test_seed_demo_prints_each_login_with_the_address_to_open(db, capsys, settings):
    # "at /admin/" left a newcomer to work out the server's address; make run
    # knows it (SITE_URL, from PORT), so the lines can be opened as they are.
    settings.SITE_URL = "http://127.0.0.1:8011"
    call_command("seed_demo")
    out = capsys.readouterr().out
    assert "therapist@demo.test" in out
    assert "http://127.0.0.1:8011/admin/" in out
    assert "http://127.0.0.1:8011/\n" in out


def test_the_demo_staff_sign_in_with_the_printed_key_or_recovery_code(db, capsys):
    """`make run` must still let someone in: both the authenticator key and the
    recovery code that seed_demo prints work on the admin's second step."""
    from base64 import b32decode

    from django.test import Client as HttpClient
    from django.urls import reverse
    from django_otp.oath import TOTP

    from homework.management.commands.seed_demo import DEMO_RECOVERY_CODE, DEMO_TOTP_SECRET

    call_command("seed_demo")
    out = capsys.readouterr().out
    assert DEMO_TOTP_SECRET in out and DEMO_RECOVERY_CODE in out
    code = str(TOTP(b32decode(DEMO_TOTP_SECRET)).token()).zfill(6)
    for who, second_step in (
        ("therapist@demo.test", code),
        ("manager@demo.test", DEMO_RECOVERY_CODE),
    ):
        http = HttpClient()
        http.post(reverse("admin:login"), {"username": who, "password": "demo-pass-2026"})
        assert http.post(reverse("admin:login_code"), {"code": second_step}).status_code == 302
        assert http.get(reverse("admin:index")).status_code == 200
    # The recovery code is back after the next run.
    call_command("seed_demo")
    http = HttpClient()
    http.post(
        reverse("admin:login"), {"username": "manager@demo.test", "password": "demo-pass-2026"}
    )
    assert http.post(reverse("admin:login_code"), {"code": DEMO_RECOVERY_CODE}).status_code == 302


def test_seed_demo_has_a_therapist_and_a_client_who_read_spanish(db):
    from django.test import Client as HttpClient

    call_command("seed_demo")
    lucia = Client.objects.get(portal_user__email="lucia@demo.test")
    assert lucia.language == "es" and lucia.therapist.language == "es"
    assert lucia.portal_user is not None
    http = HttpClient()
    http.force_login(lucia.portal_user)
    page = http.get("/").content.decode()
    assert '<html lang="es"' in page and "Por hacer" in page


def _spanish_stand_in(title: str):
    """The Spanish version of a library exercise, or, until the translators' is in, a stand-in
    linked the same way (the demo finds it by the English one it gives)."""
    from homework.management.commands._demo_spanish import spanish_version

    found = spanish_version(title)
    if found is not None:
        return found
    source = Exercise.objects.get(title=title, owner=None, language="en-gb")
    return Exercise.objects.create(
        kind=source.kind,
        title=f"{title} (es)",
        instructions=source.instructions,
        options=source.options,
        owner=None,
        language="es",
        translation_of=source,
    )


def test_seed_demo_gives_lucia_spanish_homework_from_the_spanish_library(db):
    from homework.library.programs import LibraryProgram, install_programs, step
    from homework.models import ClientProgram, ProgramStep

    call_command("seed_demo")
    urge_log = _spanish_stand_in("30 days of no contact")
    reading = _spanish_stand_in("Knowing, and the pull back")
    if not Program.objects.filter(owner=None, language="es").exists():
        stand_in: LibraryProgram = {
            "title": "Programa (es)",
            "description": "",
            "steps": [step(reading.title, "right_away")],
        }
        install_programs(Program, ProgramStep, Exercise, programs=[stand_in], language="es")
    call_command("seed_demo")
    before = counts()
    call_command("seed_demo")
    assert counts() == before

    lucia = Client.objects.get(portal_user__email="lucia@demo.test")
    given = Assignment.objects.filter(client=lucia).select_related("exercise")
    assert {a.exercise.language for a in given} == {"es"}
    assert {urge_log, reading} <= {a.exercise for a in given}
    assert ClientProgram.objects.filter(client=lucia, program__language="es").exists()
    # The reading came once, whether from her program or on its own.
    assert given.filter(exercise=reading).count() == 1

    sent = Entry.objects.filter(assignment__client=lucia, status="submitted")
    urges = sent.filter(assignment__exercise=urge_log)
    assert urges.count() >= 5
    assert sent.filter(assignment__exercise=reading).count() == 1
    (phq9,) = sent.filter(
        assignment__exercise__translation_of__title="PHQ-9", assignment__exercise__language="es"
    )
    assert phq9.score == 11 and not phq9.needs_review
