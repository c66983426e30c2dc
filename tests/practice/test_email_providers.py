"""EMAIL_URL picks a provider through django-anymail, which sends with its key and no tracking."""

import pytest
from anymail.exceptions import AnymailAPIError, AnymailRequestsAPIError
from django.core.exceptions import ImproperlyConfigured
from django.core.mail import EmailMultiAlternatives

from clients.services.discreet_email import send_discreet_email
from practice.delivery import log_failure, refused_for_good, short_error
from practice.env import email_config
from practice.models import PracticeSettings
from practice.reminder_message import ReminderKind, reminder_email, reminder_message
from tests.helpers_discreet import assert_discreet
from tests.helpers_sms import FakeProvider

TOKEN = "pm-server-token-1234"


def test_email_url_sends_through_the_provider_with_its_key(settings):
    with FakeProvider() as provider:
        config = email_config(f"anymail+postmark://{TOKEN}?api_url={provider.url}/")
        assert config.backend == "anymail.backends.postmark.EmailBackend"
        assert config.anymail["POSTMARK_SERVER_TOKEN"] == TOKEN
        settings.EMAIL_BACKEND = config.backend
        settings.ANYMAIL = config.anymail
        provider.answer(
            200, {"To": "a@example.org", "MessageID": "m-1", "ErrorCode": 0, "Message": "OK"}
        )
        message = reminder_message(practice_settings=PracticeSettings(), kinds={ReminderKind.TODAY})
        assert reminder_email(message=message, to="a@example.org").send() == 1
    [request] = provider.requests
    assert request.path == "/email"
    assert request.headers["X-Postmark-Server-Token"] == TOKEN
    sent = request.json
    assert sent["To"] == "a@example.org" and sent["Subject"] == message.subject
    # No open pixel, and the sign-in link is not rewritten through the provider.
    assert sent["TrackOpens"] is False and sent["TrackLinks"] == "None"
    assert_discreet(request.body.decode())


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("anymail+pigeon://s3cr3t", "does not set up: 'pigeon'"),
        ("anymail+postmark://", "gives no key"),
        ("anymail+mailgun://s3cr3t?sender-domain=x", "cannot take"),
    ],
)
def test_a_provider_it_cannot_set_up_stops_the_start(url, says):
    with pytest.raises(ImproperlyConfigured, match=says) as refused:
        email_config(url)
    assert "s3cr3t" not in str(refused.value)


@pytest.mark.parametrize(
    ("status", "for_good"), [(422, True), (401, True), (429, False), (500, False)]
)
def test_a_providers_refusal_is_given_up_on_only_when_retrying_cannot_help(status, for_good):
    failure = AnymailAPIError("refused", status_code=status)
    assert refused_for_good(failure) is for_good
    assert short_error(failure) == f"AnymailAPIError {status}"


def test_a_failed_send_is_logged_by_its_kind_never_with_the_providers_words(
    db, caplog, monkeypatch
):
    """A provider's error quotes its response, and the response may quote the address."""
    failure = AnymailRequestsAPIError("API response 422: alice@example.test is inactive")

    def refused(*args, **kwargs):
        raise failure

    monkeypatch.setattr(EmailMultiAlternatives, "send", refused)
    assert not send_discreet_email(
        to="alice@example.test",
        template="clients/email/password-reset",
        context={"url": "https://practice.example.test/reset/"},
        language=None,
    )
    log_failure(failure, what="a reminder", tries=1, stop=False)
    assert caplog.records and "alice" not in caplog.text
    assert all(record.exc_info is None for record in caplog.records)
    assert all("AnymailRequestsAPIError" in record.getMessage() for record in caplog.records)
