"""Registers the workspace's admin pages, in order: the admin lists apps by first registration."""

# isort: off
from homework.workspace import client_admin  # noqa: F401 (registers the client's page, sessions)
from homework.workspace import exercise_admin  # noqa: F401 (registers the exercise library)
from homework.workspace import program_admin  # noqa: F401 (registers the program builder)
from homework.workspace import assignment_admin  # noqa: F401 (registers work set for a client)
from homework.workspace import entry_admin  # noqa: F401 (registers clients' entries)
# isort: on
