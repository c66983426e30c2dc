"""The outbox: where the therapist's notices and, next, the reminders wait to
be sent. The entries' own notification fields move here in 0017 and go in 0018."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clients", "0006_invitation_email_after_commit"),
        ("homework", "0015_entry_sent_when_opened"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="OutboxMessage",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("entry-notice", "Something new arrived (to the therapist)")],
                        max_length=32,
                        verbose_name="kind",
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("pending", "Waiting to be sent"),
                            ("sent", "Sent"),
                            ("given-up", "Given up"),
                        ],
                        default="pending",
                        max_length=16,
                        verbose_name="state",
                    ),
                ),
                ("attempts", models.PositiveSmallIntegerField(default=0, verbose_name="tries")),
                (
                    "last_error",
                    models.CharField(
                        blank=True, default="", max_length=200, verbose_name="last error"
                    ),
                ),
                (
                    "created_at",
                    models.DateTimeField(
                        default=django.utils.timezone.now, verbose_name="asked for"
                    ),
                ),
                (
                    "last_tried_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="last tried"),
                ),
                ("sent_at", models.DateTimeField(blank=True, null=True, verbose_name="sent")),
                (
                    "client",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="clients.client",
                        verbose_name="about client",
                    ),
                ),
                (
                    "entry",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="outbox_messages",
                        to="homework.entry",
                        verbose_name="entry",
                    ),
                ),
                (
                    "recipient",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                        verbose_name="to",
                    ),
                ),
            ],
            options={
                "verbose_name": "message to send",
                "verbose_name_plural": "messages to send",
                "indexes": [
                    models.Index(
                        fields=["kind", "state", "attempts"], name="homework_ou_kind_b8e3bc_idx"
                    )
                ],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("kind", "entry"), name="one_message_per_kind_and_entry"
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("sent_at__isnull", False), ("state", "sent")),
                            models.Q(
                                models.Q(("state", "sent"), _negated=True),
                                ("sent_at__isnull", True),
                            ),
                            _connector="OR",
                        ),
                        name="sent_messages_have_a_time",
                    ),
                    models.CheckConstraint(
                        condition=models.Q(
                            models.Q(("kind", "entry-notice"), _negated=True),
                            ("entry__isnull", False),
                            _connector="OR",
                        ),
                        name="entry_notices_name_their_entry",
                    ),
                ],
            },
        ),
    ]
