"""Erasing what clients/ holds of a client: the last step of a manager's
"Export and erase" (homework.services.erasure.client_erase runs it, inside
its own transaction, once the homework is gone).

What stays is the Client row as a tombstone (no name, no contact, no
account, status "erased") and the access log's lines pointing at it, their
``what`` emptied: who looked, when and what kind of look, never a title or
words. The row stays rather than going because the log's lines must keep
telling one client's looks apart from another's, and its number is never
given to anyone else.
"""

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
    """Drop the admin's own history lines (django.contrib.admin's LogEntry)
    about these rows: each keeps the row's name as it was ("Alice", "Urge
    log · Alice") and what was changed."""
    content_type = ContentType.objects.get_for_model(model)
    # In batches: a client's daily log runs to thousands of entries, past
    # what one query's parameters may hold on SQLite.
    for start in range(0, len(ids), 500):
        batch = [str(pk) for pk in ids[start : start + 500]]
        LogEntry.objects.filter(content_type=content_type, object_id__in=batch).delete()


def _portal_account_forget(user: User) -> None:
    """The portal account and every trace of it: its sign-ins on every
    device and its authenticators (the lockout's rows go in _sign_in_rows_forget)."""
    # Deleting the account alone would leave each browser's session row
    # (holding its id) until it expires; they are read and removed here.
    # Rare (a manager's erasure), so reading every session row is fine.
    for row in WebSession.objects.all().iterator():
        if row.get_decoded().get("_auth_user_id") == str(user.pk):
            row.delete()
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()  # its tokens go with it
    admin_history_forget(model=User, ids=[user.pk])
    user.delete()


def _addresses_of(client: Client) -> set[str]:
    """Every address the client had with us, as the lockout keeps one typed:
    the portal's, the contact address, the reminders' address and any chosen
    on an invitation's welcome form (someone may have tried signing in with
    any of them, with an account or not)."""
    addresses = {client.contact_email}
    if client.portal_user is not None:
        addresses.add(client.portal_user.email)
    addresses.update(ContactProfile.objects.filter(client=client).values_list("email", flat=True))
    addresses.update(
        Invitation.objects.filter(client=client).values_list("chosen_email", flat=True)
    )
    return {User.normalize_username(address) for address in addresses if address}


def _sign_in_rows_forget(addresses: set[str]) -> None:
    """The lockout's counters and failure log keep the address typed."""
    for address in addresses:
        for model in (AccessAttempt, AccessFailureLog, AccessLog):
            model.objects.filter(username__iexact=address).delete()


def client_erase_own_records(*, actor: User, client: Client) -> Client:
    """Erase the client's sessions, invitations and portal account, empty
    their access log lines, leave the row as a tombstone, and write one
    "erased" line by ``actor``.

    Only inside the transaction of homework.services.erasure.client_erase,
    which has locked the row and removed the homework first: called alone
    it would leave the client's words behind a nameless row.
    """
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
