"""The urge log: each pull to make contact, written down as it comes.

Urges tend to peak early and ease with sustained no-contact; seeing the
curve bend down over the days is part of what helps. Contact is logged
without judgement, with who reached out, because both matter in session.
"""

from homework.kinds.urge_log.kind import KIND, UrgeLog

__all__ = ["KIND", "UrgeLog"]
