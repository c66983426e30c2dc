from homework.library.item import LibraryExercise

# Under the English title each gives.
FIXED_FORMS: dict[str, LibraryExercise] = {}
