"""The picture a client scans to add the portal to their authenticator app."""

from base64 import b32encode
from urllib.parse import quote, urlencode

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django_otp.plugins.otp_totp.models import TOTPDevice


def setup_uri(device: TOTPDevice) -> str:
    """No email in it: the authenticator app's list can be seen by whoever holds the phone."""
    issuer = settings.OTP_TOTP_ISSUER
    params = urlencode(
        {
            "secret": b32encode(device.bin_key).decode(),
            "algorithm": "SHA1",
            "digits": device.digits,
            "period": device.step,
            "issuer": issuer,
        },
        quote_via=quote,
    )
    return f"otpauth://totp/{quote(issuer)}?{params}"


def qr_svg(data: str) -> SafeString:
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg = str(image.to_string(encoding="unicode"))
    svg = svg.split("?>", 1)[-1].strip()  # drop the XML declaration
    label = escape(_("A code to scan with your authenticator app"))
    svg = svg.replace("<svg ", f'<svg role="img" aria-label="{label}" class="qr" ', 1)
    return mark_safe(svg)  # noqa: S308 (our own QR code and escaped label)  # nosec B703
