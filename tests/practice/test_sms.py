"""Text messages: SMS_URL picks the backend, and the Twilio-shaped one is
tried against a fake provider on loopback for each answer it can get."""

import io
import os
import subprocess
import sys
import time

import pytest
from django.core.exceptions import ImproperlyConfigured

from practice import sms
from practice.sms.config import sms_config
from practice.sms.local import ConsoleBackend
from practice.sms.twilio import TwilioBackend
from tests.helpers_sms import HANG, FakeProvider

SID = "AC0123456789abcdef0123456789abcdef"
TOKEN = "s3cret-t0ken"
TO = "+447700900123"


def backend(provider: FakeProvider, **options) -> TwilioBackend:
    return TwilioBackend(
        account_sid=SID,
        auth_token=TOKEN,
        from_number=options.pop("from_number", "+447700900999"),
        base_url=provider.url,
        **{"connect_timeout": 1, "read_timeout": 1, **options},
    )


def test_a_message_is_posted_in_twilios_shape_with_basic_auth():
    with FakeProvider() as provider:
        provider.answer(201, {"sid": "SM123", "status": "queued"})
        receipt = backend(provider).send(TO, "Notifications: something is waiting.")
    assert receipt == sms.SentReceipt(backend="twilio", provider_id="SM123")
    [request] = provider.requests
    assert request.method == "POST"
    assert request.path == f"/2010-04-01/Accounts/{SID}/Messages.json"
    assert (
        request.headers["Authorization"]
        == "Basic QUMwMTIzNDU2Nzg5YWJjZGVmMDEyMzQ1Njc4OWFiY2RlZjpzM2NyZXQtdDBrZW4="
    )
    assert request.headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert request.form == {
        "To": TO,
        "From": "+447700900999",
        "Body": "Notifications: something is waiting.",
    }


def test_a_messaging_service_is_named_instead_of_a_number():
    with FakeProvider() as provider:
        backend(provider, from_number="", messaging_service_sid="MG42").send(TO, "Hello")
    assert provider.requests[0].form == {"To": TO, "MessagingServiceSid": "MG42", "Body": "Hello"}


@pytest.mark.parametrize(
    ("status", "payload", "error", "reason"),
    [
        (
            400,
            {"code": 21211, "message": f"The 'To' number {TO} is not valid"},
            sms.SmsPermanentError,
            "http-400 21211",
        ),
        (401, {"code": 20003}, sms.SmsPermanentError, "http-401 20003"),
        (500, {}, sms.SmsTransientError, "http-500"),
        (503, None, sms.SmsTransientError, "http-503"),
        (429, {"code": 20429}, sms.SmsTransientError, "http-429 20429"),
    ],
)
def test_each_refusal_says_whether_to_try_again_and_never_the_number(
    status, payload, error, reason, caplog
):
    with FakeProvider() as provider:
        provider.answer(status, payload, **({"Retry-After": "7"} if status == 429 else {}))
        with pytest.raises(error) as refused:
            backend(provider).send(TO, "Hello there")
    assert type(refused.value) is error
    assert refused.value.reason == reason
    assert refused.value.status == status
    if status == 429:
        assert refused.value.retry_after == 7
    shown = str(refused.value) + caplog.text
    assert "900123" not in shown and "Hello there" not in shown and TOKEN not in shown


def test_a_provider_that_hangs_is_given_up_on_in_the_read_timeout():
    with FakeProvider() as provider:
        provider.answer(HANG)
        started = time.monotonic()
        with pytest.raises(sms.SmsTransientError) as refused:
            backend(provider, read_timeout=0.3).send(TO, "Hello")
        took = time.monotonic() - started
    assert refused.value.reason == "read-timeout"
    # The request went whole: the provider may have taken it.
    assert refused.value.maybe_sent
    assert took < 2


def test_a_provider_that_is_not_there_is_a_transient_failure_that_sent_nothing():
    with FakeProvider() as provider:
        url = provider.url  # closed at the end of the block: nothing listens there now
    with pytest.raises(sms.SmsTransientError) as refused:
        TwilioBackend(
            account_sid=SID, auth_token=TOKEN, from_number="+447700900999", base_url=url
        ).send(TO, "Hello")
    assert refused.value.reason == "connection-failed"
    assert not refused.value.maybe_sent


@pytest.mark.parametrize(
    ("to", "body", "reason"),
    [
        ("07700900123", "Hello", "not-e164"),
        ("+44 7700 900123", "Hello", "not-e164"),
        ("", "Hello", "not-e164"),
        (TO, "  ", "empty-body"),
        (TO, "x" * 1601, "body-too-long"),
    ],
)
def test_a_bad_number_or_body_is_refused_before_anything_leaves(to, body, reason):
    with FakeProvider() as provider, pytest.raises(sms.SmsPermanentError) as refused:
        backend(provider).send(to, body)
    assert refused.value.reason == reason
    assert provider.requests == []


def test_tests_keep_messages_in_the_outbox():
    receipt = sms.send_sms(to=TO, body="Hello")
    assert sms.outbox == [sms.SentSms(to=TO, body="Hello")]
    assert receipt.backend == "locmem"


def test_the_console_shows_the_words_and_only_the_last_digits():
    stream = io.StringIO()
    ConsoleBackend(stream=stream).send(TO, "Hello")
    assert "Hello" in stream.getvalue()
    assert "…23" in stream.getvalue() and "900123" not in stream.getvalue()


def test_sms_url_chooses_the_provider_and_its_options(settings):
    config = sms_config(f"twilio+http://{SID}:{TOKEN}@127.0.0.1:9?from=+447700900999")
    assert config.backend == "practice.sms.twilio.TwilioBackend"
    assert config.options == {
        "account_sid": SID,
        "auth_token": TOKEN,
        "from_number": "+447700900999",
        "messaging_service_sid": "",
        "base_url": "http://127.0.0.1:9",
    }
    assert (
        sms_config(f"twilio://{SID}:{TOKEN}@api.twilio.com?from=%2B447700900999").options[
            "base_url"
        ]
        == "https://api.twilio.com"
    )
    assert sms_config("console://").backend == "practice.sms.local.ConsoleBackend"
    with FakeProvider() as provider:
        settings.SMS_BACKEND = config.backend
        settings.SMS_OPTIONS = {**config.options, "base_url": provider.url}
        sms.send_sms(to=TO, body="Hello")
    assert provider.requests[0].form["From"] == "+447700900999"


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("sms://x", "must start with one of"),
        ("twilio://api.twilio.com?from=+447700900999", "needs the account SID and auth token"),
        (f"twilio://{SID}:{TOKEN}@api.twilio.com", "needs one of ?from="),
        (f"twilio://{SID}:{TOKEN}@api.twilio.com?from=07700900999", "international form"),
        (
            f"twilio://{SID}:{TOKEN}@api.twilio.com?from=+447700900999&messaging_service=MG1",
            "needs one of",
        ),
        (
            f"twilio://{SID}:{TOKEN}@api.twilio.com?from=+447700900999&fromm=1",
            "does not know: fromm",
        ),
        (f"twilio+http://{SID}:{TOKEN}@api.twilio.com?from=+447700900999", "only for a loopback"),
        (f"twilio://{SID}:{TOKEN}@api.twilio.com:http?from=+447700900999", "port"),
    ],
)
def test_a_bad_sms_url_stops_the_start_naming_the_variable_never_the_secret(url, says):
    with pytest.raises(ImproperlyConfigured) as refused:
        sms_config(url)
    message = str(refused.value)
    assert message.startswith("SMS_URL ") and says in message
    assert TOKEN not in message and SID not in message


def test_a_bad_sms_url_stops_the_process_at_start_up():
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"],
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "practice.settings",
            "SMS_URL": f"twilio://{SID}:{TOKEN}@api.twilio.com",
        },
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode != 0
    assert "SMS_URL needs one of ?from=" in result.stderr and TOKEN not in result.stderr
