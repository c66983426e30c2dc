"""Imported by the evening batch's worker (``celery worker -I``): each of its
processes starts a session of its own.

Linux shares the CPU between sessions (autogroup), not processes: left in
the benchmark's session, the two worker processes split one share between
them on a busy machine, while the single summary it is measured against has
that share to itself. In sessions of their own each gets the share the
single had, as two processes would without autogroup.
"""

import os
from typing import Any

from celery.signals import worker_process_init


@worker_process_init.connect
def _own_session(**_kwargs: Any) -> None:
    os.setsid()
