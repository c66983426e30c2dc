from django.core.management import call_command

from clients.models import Client, Session
from homework.models import Assignment, Entry, Exercise
from practice.models import User


def counts():
    return [m.objects.count() for m in (User, Client, Session, Exercise, Assignment, Entry)]


def test_seed_demo_builds_the_practice_and_is_idempotent(db, capsys):
    call_command("seed_demo")
    first = counts()
    call_command("seed_demo")
    assert counts() == first
    out = capsys.readouterr().out
    for login in ("therapist@demo.test", "manager@demo.test", "alex@demo.test", "sam@demo.test"):
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
