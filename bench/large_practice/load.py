"""Loading the large practice, and saying what it holds."""

import time
from collections.abc import Callable

from django.conf import settings
from django.db import connection

from bench.large_practice import build
from homework.library import install as install_library
from homework.management.commands.seed_demo import (
    DEMO_RECOVERY_CODE,
    DEMO_TOTP_SECRET,
    demo_second_factor,
)
from homework.models import Exercise

SCALE_PASSWORD = "scale-pass-2026"  # noqa: S105 (the documented load-test login)  # nosec B105


def large_practice_load(
    therapists: int,
    *,
    clients_per_therapist: int = 50,
    password: str = SCALE_PASSWORD,
    say: Callable[[str], object] = print,
) -> build.Built:
    """Load the large practice (what is there already is kept), then say what it holds."""
    if therapists < 1 or clients_per_therapist < 1:
        raise ValueError("The large practice needs at least one therapist and one client each.")
    install_library(Exercise)
    started = time.monotonic()
    built = build.ScalePractice(
        password=password,
        clients_per_therapist=clients_per_therapist,
        second_factor=demo_second_factor,
    ).build(therapists)
    # Bulk loads leave the planner without statistics until autovacuum comes:
    # it then takes a thousand active clients for one.
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    say(
        f"Large practice ready: {built.therapists_added} therapists and "
        f"{built.clients_added} clients added in {time.monotonic() - started:.0f} s. It now holds:"
    )
    for what, count in build.scale_counts().items():
        say(f"  {what:<12} {count}")
    last = therapists * clients_per_therapist
    say(
        f"Clients sign in at {settings.SITE_URL}/ as {build.client_email(1)} … "
        f"{build.client_email(last)}; therapists at {settings.SITE_URL}/admin/ as "
        f"{build.therapist_email(1)} … {build.therapist_email(therapists)}, and "
        f"{build.MANAGER_EMAIL}. Password for all: {password}. Staff then give the code "
        f"for the key {DEMO_TOTP_SECRET} or the recovery code {DEMO_RECOVERY_CODE}."
    )
    return built
