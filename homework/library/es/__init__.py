"""The library in Spanish, addressing the client as tú like the rest of the portal: each exercise
under the title of the English one it gives, same kind and same questions, only the words its
own. The measures are here only in their published Spanish wording."""

from homework.library.es.fixed_forms import FIXED_FORMS
from homework.library.es.measures import MEASURES
from homework.library.es.programs import PROGRAMS
from homework.library.es.readings import READINGS
from homework.library.es.worksheets import WORKSHEETS
from homework.library.item import LibraryExercise

SPANISH: dict[str, LibraryExercise] = {**FIXED_FORMS, **WORKSHEETS, **MEASURES, **READINGS}

__all__ = ["PROGRAMS", "SPANISH"]
