"""Reminders to clients: what is due for whom and when (``due``, pure), the
scan that writes them to the outbox and the send that takes them out
(``services``), and their Celery tasks in homework.tasks."""
