"""A manager's changes to the practice's staff; nothing is deleted, since an account's records
(who read and printed what) must stay."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from clients.models import Client
from clients.services.accounts import user_log_out_everywhere
from clients.services.staff_invitations import STAFF_ARE_THE_MANAGERS
from clients.services.staff_log import staff_change_record
from practice.models import User
from practice.roles import is_acting_manager, require_manager

STAFF_ROLES = (User.Role.THERAPIST, User.Role.MANAGER)


def _staff_member(user_id: int, *, lock: bool = True) -> User:
    queryset = User.objects.filter(pk=user_id, role__in=STAFF_ROLES)
    member = (queryset.select_for_update() if lock else queryset).first()
    if member is None:
        raise ValidationError(_("There is no such member of staff."))
    return member


def active_client_count(*, therapist: User) -> int:
    return Client.objects.filter(therapist=therapist, status=Client.Status.ACTIVE).count()


@transaction.atomic
def staff_deactivate(*, actor: User, user_id: int) -> User:
    """A client is never left without a therapist who can see what they send."""
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    member = _staff_member(user_id)
    if not member.is_active:
        return member  # a form sent twice
    if is_acting_manager(member):
        managers = User.objects.select_for_update().filter(role=User.Role.MANAGER, is_active=True)
        if managers.count() <= 1:
            raise ValidationError(
                _(
                    "%(name)s is the practice's only active manager: invite or reactivate "
                    "another manager first, so that someone can still manage the practice."
                )
                % {"name": member}
            )
    if member.pk == actor.pk:
        raise ValidationError(
            _("You cannot close your own account. Another practice manager can do it for you.")
        )
    clients = active_client_count(therapist=member)
    if clients:
        raise ValidationError(
            ngettext(
                "%(name)s still has %(count)s active client. Hand them over to another "
                "therapist first; then the account can be closed.",
                "%(name)s still has %(count)s active clients. Hand them over to another "
                "therapist first; then the account can be closed.",
                clients,
            )
            % {"name": member, "count": clients}
        )
    member.is_active = False
    member.save(update_fields=["is_active"])
    user_log_out_everywhere(user=member)
    staff_change_record(actor=actor, target=member, message=_("Account closed."))
    return member


@transaction.atomic
def staff_reactivate(*, actor: User, user_id: int) -> User:
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    member = _staff_member(user_id)
    if not member.is_active:
        member.is_active = True
        member.save(update_fields=["is_active"])
        staff_change_record(actor=actor, target=member, message=_("Account opened again."))
    return member


@transaction.atomic
def clients_hand_over(*, actor: User, from_id: int, to_id: int) -> int:
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    giver = _staff_member(from_id)
    taker = _staff_member(to_id)
    if not giver.is_therapist:
        raise ValidationError(_("Only a therapist has clients to hand over."))
    if taker.pk == giver.pk:
        raise ValidationError({"to_therapist": [_("Choose another therapist.")]})
    if not (taker.is_therapist and taker.is_active):
        raise ValidationError({"to_therapist": [_("Choose a therapist whose account is open.")]})
    moving = list(
        Client.objects.select_for_update()
        .filter(therapist=giver, status=Client.Status.ACTIVE)
        .order_by("pk")
    )
    if not moving:
        raise ValidationError(_("%(name)s has no active clients to hand over.") % {"name": giver})
    Client.objects.filter(pk__in=[client.pk for client in moving]).update(therapist=taker)
    for client in moving:
        staff_change_record(
            actor=actor,
            target=client,
            message=_("Handed over from %(from)s to %(to)s.") % {"from": giver, "to": taker},
        )
    summary = ngettext(
        "%(count)s client handed over from %(from)s to %(to)s.",
        "%(count)s clients handed over from %(from)s to %(to)s.",
        len(moving),
    ) % {"count": len(moving), "from": giver, "to": taker}
    staff_change_record(actor=actor, target=giver, message=summary)
    staff_change_record(actor=actor, target=taker, message=summary)
    return len(moving)


@transaction.atomic
def staff_second_factor_reset(*, actor: User, user_id: int) -> User:
    """Not the manager's own: anyone at this screen with the password could take it over."""
    require_manager(actor, refusal=STAFF_ARE_THE_MANAGERS)
    member = _staff_member(user_id)
    if member.pk == actor.pk:
        raise ValidationError(
            _(
                "You cannot reset your own second factor here. Sign in with a recovery code "
                "and make new ones, or ask another practice manager."
            )
        )
    TOTPDevice.objects.filter(user=member).delete()
    StaticDevice.objects.filter(user=member).delete()
    user_log_out_everywhere(user=member)
    staff_change_record(
        actor=actor,
        target=member,
        message=_("Second factor reset: the authenticator app is set up again at next sign-in."),
    )
    return member
