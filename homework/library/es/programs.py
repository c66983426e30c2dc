"""The ready-made programs in Spanish: the English ones step for step, built from the Spanish
exercises. Each step names its exercise by the English title, looked up in the Spanish library,
so a program can never name a Spanish title that isn't there."""

from homework.library.es.fixed_forms import FIXED_FORMS
from homework.library.es.readings import READINGS
from homework.library.es.worksheets import WORKSHEETS
from homework.library.programs import LibraryProgram, step

SPANISH_TITLES: dict[str, str] = {
    **{source: item["title"] for source, item in {**FIXED_FORMS, **WORKSHEETS, **READINGS}.items()},
}


def _es(english_title: str) -> str:
    return SPANISH_TITLES[english_title]


PROGRAMS: list[LibraryProgram] = [
    {
        "title": "Entender la atracción: cuatro semanas",
        "description": (
            "Para un cliente que sabe que la relación le hace daño y aun así siente la atracción "
            "de volver. Una lectura por semana, con el registro de impulsos y el registro escrito "
            "entre ellas, y una reflexión para terminar. Los pasos llegan cada semana, o cuando "
            "se ha completado el anterior."
        ),
        "steps": [
            step(_es("Knowing, and the pull back"), "right_away"),
            step(
                _es("Notice the pull"),
                "after_previous",
                says="Cuando sientas la atracción esta semana, anótala aquí. Bastan unas palabras.",
            ),
            step(_es("Warmth that comes and goes"), "on_day", 8),
            step(_es("Why the good memories come back"), "on_day", 15),
            step(
                _es("Keep the full picture"),
                "after_previous",
                says="Si te parece seguro hacerlo, escribe un momento que quieras recordar tal "
                "como fue.",
            ),
            step(_es("An urge is a wave"), "on_day", 22),
            step(_es("Knowing is not the same as leaving"), "after_previous_days", 2),
        ],
    },
    {
        "title": "Más a salvo, por ahora",
        "description": (
            "Reducción de daños para un cliente que todavía no se va: primero la seguridad, un "
            "pequeño límite, las personas que están de su lado y, de nuevo, el plan de seguridad. "
            "Nada en él le pide al cliente que se vaya."
        ),
        "steps": [
            step(_es("When leaving isn't safe yet"), "right_away"),
            step(_es("My safety plan"), "after_previous", required=True),
            step(_es("Starting with a small boundary"), "after_previous_days", 3),
            step(_es("One small boundary"), "after_previous"),
            step(_es("People in your corner"), "on_day", 15),
            step(_es("Who is in my corner"), "after_previous"),
            step(
                _es("My safety plan"),
                "on_day",
                28,
                says="Repasa tu plan una vez más. Cambia lo que sea distinto ahora.",
            ),
        ],
    },
]
