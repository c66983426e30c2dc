"""What Django's admin autodiscovery imports for homework: each line below
imports a module of the therapist's workspace that registers its pages."""

from homework.workspace import (
    assignment_admin,  # noqa: F401 (registers work set for a client)
    client_admin,  # noqa: F401 (registers the client's page, sessions)
    entry_admin,  # noqa: F401 (registers clients' entries)
    exercise_admin,  # noqa: F401 (registers the exercise library)
)
