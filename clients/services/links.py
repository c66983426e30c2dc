"""Single-use links made from a seed on the row and SECRET_KEY: a database copy opens none."""

import hashlib
import secrets
from base64 import urlsafe_b64encode

from django.utils.crypto import salted_hmac


def new_link_seed() -> str:
    return secrets.token_hex(16)


def link_token(seed: str, *, purpose: str) -> str:
    """``purpose`` keeps one kind of link's secret from ever opening another kind."""
    digest = salted_hmac(purpose, seed, algorithm="sha256").digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def link_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
