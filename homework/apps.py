from django.apps import AppConfig


class HomeworkConfig(AppConfig):
    name = "homework"

    def ready(self) -> None:
        # A sign-out keeps the words its page carries (homework.portal.quick_exit's
        # receiver): clients, below homework, only ends the session.
        from homework.portal import quick_exit  # noqa: F401
