from homework.library.programs import LibraryProgram

PROGRAMS: list[LibraryProgram] = []
