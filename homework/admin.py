"""What Django's admin autodiscovery imports for homework: each line below
imports a module of the therapist's workspace that registers its pages."""

# In the order they have always registered in: the admin's per-app URL lists
# the apps in the order their first model was registered (clients before homework).
# isort: off
from homework.workspace import client_admin  # noqa: F401 (registers the client's page, sessions)
from homework.workspace import exercise_admin  # noqa: F401 (registers the exercise library)
from homework.workspace import assignment_admin  # noqa: F401 (registers work set for a client)
from homework.workspace import entry_admin  # noqa: F401 (registers clients' entries)
# isort: on
