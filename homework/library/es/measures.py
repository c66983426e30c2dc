from homework.library.item import LibraryExercise

# Under the English title each gives.
MEASURES: dict[str, LibraryExercise] = {}
