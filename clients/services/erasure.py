"""Erasing what clients/ holds of a client; the row stays as a tombstone so the access log
keeps telling one client's looks from another's."""

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib.admin.models import LogEntry
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session as WebSession
from django.db import connection
from django.db.models import Model
from django.utils.translation import gettext as _
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.contact.models import ContactProfile
from clients.models import AccessEvent, Client, Invitation, Session, practice_time_zone
from clients.services.contact import contact_profile_erase
from practice.models import User
from practice.roles import require_manager


def admin_history_forget(*, model: type[Model], ids: list[int]) -> None:
    """The admin's LogEntry keeps each row's name as it was ("Alice") and what changed."""
    content_type = ContentType.objects.get_for_model(model)
    # In batches: thousands of ids would pass what one SQLite query's parameters may hold.
    for start in range(0, len(ids), 500):
        batch = [str(pk) for pk in ids[start : start + 500]]
        LogEntry.objects.filter(content_type=content_type, object_id__in=batch).delete()


def _portal_account_forget(user: User) -> None:
    # Session rows hold the account's id until they expire; an erasure is rare enough to read all.
    for row in WebSession.objects.all().iterator():
        if row.get_decoded().get("_auth_user_id") == str(user.pk):
            row.delete()
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()
    admin_history_forget(model=User, ids=[user.pk])
    user.delete()


def _addresses_of(client: Client) -> set[str]:
    """Someone may have tried signing in with any of them, with an account or not."""
    addresses = {client.contact_email}
    if client.portal_user is not None:
        addresses.add(client.portal_user.email)
    addresses.update(ContactProfile.objects.filter(client=client).values_list("email", flat=True))
    addresses.update(
        Invitation.objects.filter(client=client).values_list("chosen_email", flat=True)
    )
    return {User.normalize_username(address) for address in addresses if address}


def _sign_in_rows_forget(addresses: set[str]) -> None:
    for address in addresses:
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__iexact=address).delete()


def client_erase_own_records(*, actor: User, client: Client) -> Client:
    """Only inside client_erase's transaction: alone it would leave words behind a nameless row."""
    if not connection.in_atomic_block:
        raise RuntimeError("client_erase_own_records runs inside client_erase's transaction.")
    require_manager(actor, refusal=_("Only a practice manager erases a client's records."))
    admin_history_forget(
        model=Session, ids=list(Session.objects.filter(client=client).values_list("pk", flat=True))
    )
    Session.objects.filter(client=client).delete()
    # Read before the invitations, the profile and the account that hold them go.
    addresses = _addresses_of(client)
    Invitation.objects.filter(client=client).delete()
    # Before the account: the change log's lines point at who made them.
    contact_profile_erase(client=client)
    account = client.portal_user
    AccessEvent.objects.filter(client=client).update(what="")
    client.display_name = ""
    client.contact_email = ""
    client.timezone = practice_time_zone()
    client.portal_user = None
    client.status = Client.Status.ERASED
    client.save()
    if account is not None:
        _portal_account_forget(account)
    _sign_in_rows_forget(addresses)
    admin_history_forget(model=Client, ids=[client.pk])
    AccessEvent.objects.create(actor=actor, client=client, action=AccessEvent.Action.ERASED)
    return client
