from homework.library.item import LibraryExercise

# Under the English title each gives.
READINGS: dict[str, LibraryExercise] = {}
