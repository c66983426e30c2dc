"""The reflection worksheet: the therapist's own questions, answered in order.

The questions live on the exercise (Exercise.options, checked by
``clean_options`` when the therapist saves it). A worksheet may mark its
0–10 questions as scored and say how they add up; the total is kept on
each entry and drawn over time. A total is a reflection for the client and
the therapist to talk about, never a diagnosis or a grade.
"""

from homework.kinds.worksheet.kind import KIND, Worksheet

__all__ = ["KIND", "Worksheet"]
