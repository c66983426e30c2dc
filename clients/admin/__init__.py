"""Clients' own admin, which knows no homework; the workspace registers the ModelAdmins."""

from django.contrib import admin
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice
from knox.models import AuthToken

from clients.admin import (
    access_log,  # noqa: F401 (registers the access log)
    sign_ins,  # noqa: F401 (registers the screens of sign-ins)
)

# Authenticator secrets, recovery codes and API tokens are nobody's to read, not even a manager's.
admin.site.unregister(TOTPDevice)
admin.site.unregister(StaticDevice)
admin.site.unregister(AuthToken)
