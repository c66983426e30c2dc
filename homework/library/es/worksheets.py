from homework.library.item import LibraryExercise

# Under the English title each gives.
WORKSHEETS: dict[str, LibraryExercise] = {}
