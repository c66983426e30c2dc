"""Every write to clients goes through here: keyword-only, atomic, typed."""

from clients.services.access_log import (
    ACCESS_EVENT_REPEAT,
    access_event_record,
    access_events_record,
)
from clients.services.accounts import (
    user_change_password,
    user_dismiss_exit_note,
    user_log_out_everywhere,
    user_send_password_reset,
)
from clients.services.clients import (
    CLIENT_EDITABLE_FIELDS,
    client_archive,
    client_attach_portal_account,
    client_choose_language,
    client_create,
    client_restore,
    client_update,
)
from clients.services.contact import (
    contact_profile_erase,
    contact_profile_turn_off,
    contact_profile_update,
)
from clients.services.discreet_email import EmailNotSent, send_discreet_email
from clients.services.erasure import admin_history_forget, client_erase_own_records
from clients.services.invitation_acceptance import (
    invitation_accept,
    invitation_finish,
    invitation_finish_check,
    invitation_send_finish_email,
)
from clients.services.invitations import (
    INVITATION_ACCEPT_TRIES,
    INVITATION_SENT_TWICE_WINDOW,
    InvitationRefused,
    IssuedInvitation,
    client_invite,
    invitation_check,
    invitation_issued,
    invitation_send_email,
    invitation_token_hash,
)
from clients.services.sessions import session_cancel, session_reschedule, session_schedule
from clients.services.sign_ins import sign_in_lock_lift
from clients.services.two_step import (
    TwoStepAlreadyOn,
    client_two_step_reset,
    recovery_code_verify,
    recovery_codes_left,
    recovery_codes_renew,
    totp_device_confirm,
    totp_device_remove,
    totp_device_start,
    totp_verify,
    two_step_reset_notice_take,
    two_step_turn_on,
)

__all__ = [
    "ACCESS_EVENT_REPEAT",
    "CLIENT_EDITABLE_FIELDS",
    "INVITATION_ACCEPT_TRIES",
    "INVITATION_SENT_TWICE_WINDOW",
    "EmailNotSent",
    "InvitationRefused",
    "IssuedInvitation",
    "TwoStepAlreadyOn",
    "access_event_record",
    "access_events_record",
    "admin_history_forget",
    "client_archive",
    "client_attach_portal_account",
    "client_choose_language",
    "client_create",
    "client_erase_own_records",
    "client_invite",
    "client_restore",
    "client_two_step_reset",
    "client_update",
    "contact_profile_erase",
    "contact_profile_turn_off",
    "contact_profile_update",
    "invitation_accept",
    "invitation_check",
    "invitation_finish",
    "invitation_finish_check",
    "invitation_issued",
    "invitation_send_email",
    "invitation_send_finish_email",
    "invitation_token_hash",
    "recovery_code_verify",
    "recovery_codes_left",
    "recovery_codes_renew",
    "send_discreet_email",
    "session_cancel",
    "session_reschedule",
    "session_schedule",
    "sign_in_lock_lift",
    "totp_device_confirm",
    "totp_device_remove",
    "totp_device_start",
    "totp_verify",
    "two_step_reset_notice_take",
    "two_step_turn_on",
    "user_change_password",
    "user_dismiss_exit_note",
    "user_log_out_everywhere",
    "user_send_password_reset",
]
