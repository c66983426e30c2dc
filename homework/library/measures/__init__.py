"""The standard measures of the library, each worded, ordered and scored exactly as published, with
its source and terms of use named (CLINICAL.md, Standard measures). The CORE-10 and the C-SSRS
screener are left out: their terms do not allow them in free software (README, Standard measures)."""

from homework.library.item import LibraryExercise
from homework.library.measures.dass21 import DASS21, DASS21_ITEMS
from homework.library.measures.pcl5 import PCL5, PCL5_ITEMS
from homework.library.measures.phq_gad import GAD7, GAD7_ITEMS, PHQ9, PHQ9_ITEMS
from homework.library.measures.wsas import WSAS, WSAS_ITEMS

MEASURES: list[LibraryExercise] = [PHQ9, GAD7, PCL5, DASS21, WSAS]

__all__ = [
    "DASS21_ITEMS",
    "GAD7_ITEMS",
    "MEASURES",
    "PCL5_ITEMS",
    "PHQ9_ITEMS",
    "WSAS_ITEMS",
]
