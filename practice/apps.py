from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class PracticeConfig(AppConfig):
    name = "practice"
    default = True

    def ready(self) -> None:
        from practice import checks  # noqa: F401 (registers them)


class PracticeAdminConfig(admin_apps.AdminConfig):
    # Not the "practice" app's own config: that stays Django's default.
    default = False
    default_site = "homework.workspace.site.WorkspaceAdminSite"
