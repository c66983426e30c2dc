"""The urge log: each pull to make contact, written down as it comes. Contact is logged without
judgement, with who reached out."""

from homework.kinds.urge_log.kind import KIND, UrgeLog

__all__ = ["KIND", "UrgeLog"]
