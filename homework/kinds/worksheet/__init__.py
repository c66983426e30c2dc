"""The reflection worksheet: the therapist's own questions, answered in order. A total is a
reflection to talk about, never a diagnosis or a grade."""

from homework.kinds.worksheet.kind import KIND, Worksheet

__all__ = ["KIND", "Worksheet"]
