"""A password check refused because the server is busy: never a failed sign-in.

Raised where the checks are bounded (clients.password_checks); the sign-in
page answers it with a calm page, the API with its error shape, both 429.
"""

# Seconds a refused-because-busy browser is asked to wait before trying again.
BUSY_RETRY_AFTER = 5


class PasswordChecksBusy(Exception):
    """Too many password checks are running in this process: try again shortly.

    Not a PermissionDenied on purpose: Django's ``authenticate`` would count
    it as a failed sign-in, and a busy server must never lock anyone out."""
