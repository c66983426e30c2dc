"""Helpers shared by the HTTP-level tests: signing in, two-step codes,
invitations, the portal's and the admin's forms as posted."""

import datetime as dt
import re
import time
import zoneinfo
from html.parser import HTMLParser
from typing import Any

from django.db import transaction
from django.test import Client as HttpClient
from django.urls import reverse
from django.utils import formats, timezone
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients import services
from clients.middleware import STAFF_LAST_SEEN
from clients.models import Client
from homework.kinds.written_record import WrittenRecord
from practice.crisis import crisis_line_html
from practice.models import PracticeSettings, User
from practice.selectors import practice_settings
from tests.factories import (
    PASSWORD,
    written_record,
)


def sign_in(http: HttpClient, email: str, password: str = PASSWORD):
    return http.post(reverse("clients:login"), {"username": email, "password": password})


def request_reset(email: str, capture) -> None:
    with capture(execute=True):
        HttpClient().post(reverse("clients:password_reset"), {"email": email})


def turn_on_two_step(user) -> TOTPDevice:
    device = services.totp_device_start(user=user)
    return services.totp_device_confirm(user=user, token=current_code(device))


def form_token(html: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert found is not None
    return found.group(1)


def token_of(issued: services.IssuedInvitation) -> str:
    return issued.url.rstrip("/").rsplit("/", 1)[1]


def choose_password(http: HttpClient, **form):
    """The welcome form, sent from the page the invitation's link opened."""
    data = {
        "email": "casey@example.test",
        "password1": "quiet harbour 42",
        "password2": "quiet harbour 42",
    }
    return http.post(reverse("clients:welcome_password"), {**data, **form})


def accept(http: HttpClient, token: str, **form):
    http.get(reverse("clients:welcome", args=[token]))
    return choose_password(http, **form)


def assert_read_only_in_the_admin(http: HttpClient, model: str, pk: int, **changed: str) -> None:
    """``model``'s rows ("clients_accessevent") are the admin's to read only: its list has no
    actions, adding is refused, a row's page has no Save and refuses a post with ``changed``,
    and deleting one, or the list's delete_selected, deletes nothing."""
    changelist = reverse(f"admin:{model}_changelist")
    page = http.get(changelist).content.decode()
    assert 'name="action"' not in page and "action-checkbox" not in page
    assert http.get(reverse(f"admin:{model}_add")).status_code == 403
    change = reverse(f"admin:{model}_change", args=[pk])
    opened = http.get(change)
    assert opened.status_code == 200 and 'name="_save"' not in opened.content.decode()
    assert http.post(change, changed).status_code == 403
    delete = reverse(f"admin:{model}_delete", args=[pk])
    assert http.post(delete, {"post": "yes"}).status_code == 403
    bulk = {"action": "delete_selected", "_selected_action": [pk], "post": "yes"}
    assert http.post(changelist, bulk).status_code in (200, 302)


def finish_link(message) -> str:
    """The finishing link in an acceptance email, as a path."""
    found = re.search(r"https?://[^/\s]+(/welcome/finish/[^/\s]+/)", message.body)
    assert found is not None, message.body
    return found.group(1)


def accept_and_finish(http: HttpClient, token: str, capture, **form):
    """The whole first visit: the welcome form, then the link it emails,
    then "Open my notebook". Returns that last answer."""
    from django.core import mail

    with capture(execute=True):
        accept(http, token, **form)
    http.get(finish_link(mail.outbox[-1]))
    return http.post(reverse("clients:welcome_finish_confirm"))


def do_url(assignment) -> str:
    return reverse("homework:do", args=[assignment.pk])


def posted(key, version=0, **overrides):
    return {
        "key": str(key),
        "version": str(version),
        **{f"r-{name}": value for name, value in written_record(**overrides).items()},
    }


def assignment_form(cast, client, exercise, **overrides):
    today = timezone.localdate()
    return {
        "client": str(client.pk),
        "exercise": str(exercise.pk),
        "instructions": "Write one down this week, if something happens.",
        "starts_on": today.isoformat(),
        "due_on": (today + dt.timedelta(days=7)).isoformat(),
        "schedule": "once",
        "weekdays": [],  # check boxes: none ticked
        "ends_on": "",
        "no_contact_since": "",
        "status": "active",
        **overrides,
    }


CHANGE = "admin:practice_practicesettings_change"


def settings_form(**overrides):
    row = PracticeSettings.objects.get(pk=1)
    return {
        "name": row.name,
        "paper_size": row.paper_size,
        "reminder_sender_name": row.reminder_sender_name,
        "reminder_subject": row.reminder_subject,
        "crisis_resources": row.crisis_resources,
        "quick_exit_url": row.quick_exit_url,
        "idle_timeout_minutes": str(row.idle_timeout_minutes),
        "staff_idle_timeout_minutes": str(row.staff_idle_timeout_minutes),
        "contact_recheck_weeks": str(row.contact_recheck_weeks),
        "alert_escalate_after_hours": str(row.alert_escalate_after_hours),
        "summary_keep_days": str(row.summary_keep_days),
        "message_keep_days": str(row.message_keep_days),
        **({"weekly_digest": "on"} if row.weekly_digest else {}),
        **overrides,
    }


def current_code(device: TOTPDevice) -> str:
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits, device.drift)
    return str(totp.token()).zfill(device.digits)


def day_pattern(value: dt.date | dt.datetime, date_format: str) -> str:
    """A regular expression for ``value`` as a document prints it in
    ``date_format`` (no year in it): with its year or without, since a
    document about days across New Year names every date's year."""
    end = max(date_format.rfind(letter) for letter in "dDjlNSwzWMFnmbE") + 1
    plain = formats.date_format(value, date_format)
    named = formats.date_format(value, f"{date_format[:end]} Y{date_format[end:]}")
    return f"(?:{re.escape(plain)}|{re.escape(named)})"


def last_night_at_nine(zone: zoneinfo.ZoneInfo) -> dt.datetime:
    """21:00 yesterday on the client's clock: the small hours of today in London."""
    yesterday = timezone.localdate(timezone=zone) - dt.timedelta(days=1)
    return dt.datetime.combine(yesterday, dt.time(21, 0), tzinfo=zone)


def rename_distress(response: dict[str, object]) -> dict[str, object]:
    """v1 → v2 of the pretend schema below: "distress" became "body_distress"."""
    upgraded = {k: v for k, v in response.items() if k != "distress"}
    upgraded["body_distress"] = response.get("distress")
    return upgraded


class WrittenRecordV2(WrittenRecord):
    """The written record as if its first version had called distress "distress"."""

    schema_version = 2
    upgrades = {1: rename_distress}


class _FormData(HTMLParser):
    """The fields a browser sends for the form with this id, as drawn."""

    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.sent: list[tuple[str, str]] = []
        self.select: tuple[str, list[str], list[str]] | None = None  # name, options, chosen
        self.textarea: tuple[str, list[str]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        if tag == "form":
            self.inside = found.get("id") == self.form_id
        name = found.get("name")
        if not self.inside:
            return
        if tag == "input" and name:
            kind = found.get("type", "text")
            unticked = kind in ("checkbox", "radio") and "checked" not in found
            if kind not in ("submit", "button", "file") and not unticked:
                ticked = "on" if kind in ("checkbox", "radio") else ""
                self.sent.append((name, found.get("value", ticked)))
        elif tag == "select" and name:
            self.select = (name, [], [])
        elif tag == "option" and self.select is not None:
            self.select[1].append(found.get("value", ""))
            if "selected" in found:
                self.select[2].append(found.get("value", ""))
        elif tag == "textarea" and name:
            self.textarea = (name, [])

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.textarea[1].append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self.select is not None:
            name, options, chosen = self.select
            self.sent.extend((name, value) for value in chosen or options[:1])
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            name, text = self.textarea
            self.sent.append((name, "".join(text).removeprefix("\n")))
            self.textarea = None


def form_on(page: Any, model_name: str) -> dict[str, Any]:
    """What pressing Save on this page would send."""
    assert page.status_code == 200
    parser = _FormData(f"{model_name}_form")
    parser.feed(page.text)
    sent: dict[str, list[str]] = {}
    for name, value in parser.sent:
        sent.setdefault(name, []).append(value)
    return {name: values if len(values) > 1 else values[0] for name, values in sent.items()}


@transaction.atomic
def invite_then_fail(cast, client: Client) -> None:
    services.client_invite(actor=cast.tara, client=client, send_email=True)
    raise RuntimeError("the save that followed failed")


def assert_safe_shell(text: str) -> None:
    """The shell every page keeps, error pages too: the quick exit and the crisis lines."""
    practice = practice_settings()
    assert 'id="quick-exit"' in text
    assert f'data-exit-url="{practice.quick_exit_url}"' in text
    assert crisis_line_html(practice.crisis_lines[0]) in text
    assert "hijack" not in text.lower()


def force_verified_login(http: HttpClient, user: User) -> None:
    """``force_login``, and for staff the second factor given too (an
    authenticator made for them if they have none), as django_otp.login does."""
    http.force_login(user)
    if user.is_client:
        return
    session = http.session
    session[DEVICE_ID_SESSION_KEY] = staff_authenticator(user).persistent_id
    session[STAFF_LAST_SEEN] = time.time()
    session.save()


def staff_authenticator(user: User) -> TOTPDevice:
    """The staff member's authenticator, set up for them if they have none yet."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name="authenticator", confirmed=True)
    return device


def staff_recovery_code(user: User) -> str:
    """A fresh recovery code for ``user`` (their authenticator set up too): a
    second step that works however many times a test signs in, in any 30 seconds."""
    staff_authenticator(user)
    device, _created = StaticDevice.objects.get_or_create(
        user=user, defaults={"name": "recovery codes", "confirmed": True}
    )
    return str(device.token_set.create(token=StaticToken.random_token()).token)


def admin_sign_in(http: HttpClient, user: User, password: str = PASSWORD) -> Any:
    """Both steps of the admin's sign-in, the second with a recovery code."""
    http.post(reverse("admin:login"), {"username": user.email, "password": password})
    return http.post(reverse("admin:login_code"), {"code": staff_recovery_code(user)})


# A contact profile as a service call sets it: email safe, any time, daily.
CONTACT_CHOICES: dict[str, Any] = {
    "email_is_safe": True,
    "email": "alice.reminders@example.test",
    "text_is_safe": False,
    "phone": "",
    "safe_hours": [[["00:00", "24:00"]]] * 7,
    "days_between": 1,
    "recurring_reminder_at": dt.time(18, 0),
}


def contact_form_data(**overrides: str) -> dict[str, str]:
    """The contact profile's form as a person fills it day by day ("Set the
    days one by one"): email safe, weekdays 9 to 5, weekends not at all, at
    most one message a day, in London."""
    data = {
        "email_is_safe": "on",
        "email": "alice.reminders@example.test",
        "phone": "",
        "days_between": "1",
        "recurring_reminder_at": "18:00",
        "time_zone": "Europe/London",
        "one_by_one": "on",
    }
    for day in ("mon", "tue", "wed", "thu", "fri"):
        data.update({f"{day}_when": "between", f"{day}_from": "09:00", f"{day}_until": "17:00"})
    for day in ("sat", "sun"):
        data[f"{day}_when"] = "never"
    return {**data, **overrides}


def contact_rows_data(**overrides: str) -> dict[str, str]:
    """The same choices as the page's two rows set them: Monday to Friday
    9 to 5, Saturday and Sunday not at all."""
    data = {
        key: value
        for key, value in contact_form_data().items()
        if key != "one_by_one"
        and not key.startswith(("mon_", "tue_", "wed_", "thu_", "fri_"))
        and not key.startswith(("sat_", "sun_"))
    }
    data.update({"weekdays_when": "between", "weekdays_from": "09:00", "weekdays_until": "17:00"})
    data["weekend_when"] = "never"
    return {**data, **overrides}
