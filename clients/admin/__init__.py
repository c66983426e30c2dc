"""Clients' own admin, which knows no homework: the client's record (clients.admin.clients), their
sessions (clients.admin.sessions) and the scoped list filters (clients.admin.filters). The
ModelAdmins are registered with the therapist's workspace on them
(homework.workspace.client_admin); the access log (clients.admin.access_log) and the sign-ins
(clients.admin.sign_ins) need no workspace and register themselves."""

from django.contrib import admin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from clients.admin import (
    access_log,  # noqa: F401 (registers the access log)
    sign_ins,  # noqa: F401 (registers the screens of sign-ins)
)

# The authenticator secrets of clients, the staff's recovery codes and API
# tokens are nobody's to read, not even the manager's: their owners list and
# revoke their tokens through the API (clients.api.tokens).
admin.site.unregister(TOTPDevice)
admin.site.unregister(StaticDevice)
admin.site.unregister(AuthToken)
