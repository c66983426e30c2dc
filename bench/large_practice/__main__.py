"""``python -m bench.large_practice N [--clients-per-therapist M] [--password P]``."""

import argparse
import os

import django


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.large_practice")
    parser.add_argument("therapists", type=int, help="how many therapists (20: 1,000 clients)")
    parser.add_argument("--clients-per-therapist", type=int, default=50)
    parser.add_argument("--password", default=None)
    options = parser.parse_args()
    if options.therapists < 1 or options.clients_per_therapist < 1:
        parser.error("the therapists and clients per therapist take a positive number")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "practice.settings")
    django.setup()
    from bench.large_practice.load import SCALE_PASSWORD, large_practice_load

    large_practice_load(
        options.therapists,
        clients_per_therapist=options.clients_per_therapist,
        password=options.password or SCALE_PASSWORD,
    )


if __name__ == "__main__":
    main()
