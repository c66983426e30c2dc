"""/health/ for a load balancer: two words, whatever is wrong."""

import pytest
from health_check.checks import Database
from health_check.exceptions import ServiceUnavailable


@pytest.fixture
def own_storages(settings, tmp_path):
    """The storages the check writes to, somewhere of the test's own."""
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "media")},
        },
        "summaries": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path / "summaries")},
        },
    }


@pytest.mark.django_db
def test_health_is_ok_when_the_database_and_storage_answer(client, own_storages):
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.content == b"ok\n"
    assert "no-cache" in response["Cache-Control"]


@pytest.mark.django_db
def test_health_is_unavailable_without_saying_why(client, own_storages, monkeypatch, caplog):
    def refuse(self):
        raise ServiceUnavailable("connection refused by db.internal:5432")

    monkeypatch.setattr(Database, "run", refuse)
    # Asked for its JSON report, as a curious caller might: still two words.
    response = client.get("/health/?format=json", HTTP_ACCEPT="application/json")
    assert response.status_code == 503
    assert response.content == b"unavailable\n"
    # The reason is in the server's log, for whoever runs it.
    assert "Database" in caplog.text
