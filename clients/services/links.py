"""Single-use links (a client's invitation, a new staff member's): the secret
in the link is made from a random seed kept on the row and SECRET_KEY, and only
its hash is looked up, so a copy of the database alone opens no one's link."""

import hashlib
import secrets
from base64 import urlsafe_b64encode

from django.utils.crypto import salted_hmac


def new_link_seed() -> str:
    return secrets.token_hex(16)


def link_token(seed: str, *, purpose: str) -> str:
    """The link's secret for ``seed``; ``purpose`` keeps one kind of link's
    secret from ever opening another kind (as Django's password-reset links)."""
    digest = salted_hmac(purpose, seed, algorithm="sha256").digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def link_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
