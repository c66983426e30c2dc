"""The readings in Spanish: the same eight ideas as the English ones, each in its own words (tú,
like the rest of the portal), with the texts in reading_texts/ under the English file names."""

from pathlib import Path

from homework.library.item import LibraryExercise
from homework.library.readings import reading, reading_text

TEXTS = Path(__file__).with_name("reading_texts")


def _text(name: str) -> str:
    return reading_text(name, folder=TEXTS)


# Under the English title each gives.
READINGS: dict[str, LibraryExercise] = {
    "Knowing, and the pull back": reading(
        title="Saber, y aun así sentir la atracción",
        instructions=(
            "Una lectura breve para un momento tranquilo. Las preguntas de abajo están ahí por si "
            "te sirven."
        ),
        therapist_note=(
            "La decisión clara y el tirón del apego funcionan en sistemas distintos; que cueste "
            "actuar no prueba que la decisión sea equivocada. Se complementa con la hoja de "
            "trabajo “Saber no es lo mismo que irse”."
        ),
        text=_text("knowing"),
        prompts=[
            "¿Hay algo que ahora ves con claridad y que hace un tiempo te costaba más ver? Unas pocas palabras bastan.",
            "¿Cuándo suele aparecer el tirón, si te has dado cuenta?",
        ],
    ),
    "Warmth that comes and goes": reading(
        title="Cariño que va y viene",
        instructions=(
            "Una lectura breve sobre por qué algunos vínculos atan con tanta fuerza. Puedes parar "
            "cuando quieras."
        ),
        therapist_note=(
            "El refuerzo intermitente en palabras sencillas: los buenos momentos son reales y "
            "también son lo que mantiene el ciclo en marcha. Se complementa con “El ciclo, tal "
            "como lo he vivido”."
        ),
        text=_text("warmth"),
        prompts=[
            "Mirando atrás, ¿reconoces algún ritmo? Escribe tanto o tan poco como quieras.",
            "¿Qué podría ayudarte a tener presente la imagen completa cuando llegan los momentos de cariño?",
        ],
    ),
    "Why the good memories come back": reading(
        title="Por qué vuelven los buenos recuerdos",
        instructions=(
            "Una lectura breve sobre la memoria, y sobre una forma de tener cerca la historia "
            "completa."
        ),
        therapist_note=(
            "Por qué la memoria se inclina hacia los buenos momentos, y para qué sirve el registro "
            "escrito. Se complementa con “Guardar la historia completa”."
        ),
        text=_text("memories"),
        prompts=[
            "¿Qué te gustaría que recordara tu yo del futuro un día en que se amontonen los buenos recuerdos?",
            "¿Hay algún momento difícil del que te gustaría dejar constancia? No hace falta que lo escribas aquí: esto es solo un lugar para fijarte en él.",
        ],
    ),
    "An urge is a wave": reading(
        title="Un impulso es una ola",
        instructions="Una lectura breve para los momentos en que llegan las ganas de ponerte en contacto.",
        therapist_note=(
            "Los impulsos como ansia (craving), no como información nueva: suben y bajan, y bajan "
            "más con el contacto cero sostenido. Se complementa con “30 días de contacto cero”, o "
            "con “Observar la atracción” para clientes que siguen en contacto."
        ),
        text=_text("urges"),
        prompts=[
            "Piensa en un impulso reciente, si quieres. ¿Qué lo desencadenó y qué pasó con él con el tiempo?",
            "¿Qué te ayuda a dejar pasar un impulso? Todo cuenta, por pequeño que sea.",
        ],
    ),
    "Starting with a small boundary": reading(
        title="Empezar por un límite pequeño",
        instructions=(
            "Una lectura breve sobre límites lo bastante pequeños para probarlos, estés donde estés."
        ),
        therapist_note=(
            "Reducción de daños: el límite como acción propia del cliente, lo bastante pequeño "
            "para probarlo ya, con la seguridad primero. Se complementa con la escalera “Un "
            "pequeño límite”."
        ),
        text=_text("boundary"),
        prompts=[
            "¿Hay algún límite pequeño que te gustaría probar? Puedes escribirlo con tus propias palabras.",
            "¿Qué podría hacer que te resulte un poco más fácil mantenerlo, aunque sea una vez?",
        ],
    ),
    "People in your corner": reading(
        title="Las personas que están de tu lado",
        instructions=(
            "Una lectura breve sobre las personas que están de tu lado, y sobre quién puede "
            "ayudarte a ver las cosas como son."
        ),
        therapist_note=(
            "El aislamiento refuerza el vínculo; nombra el papel de quien ayuda a ver las cosas "
            "como son y el de la amistad que quiere al cliente pero no le da estabilidad. Se "
            "complementa con el mapa “Quién está de mi lado”."
        ),
        text=_text("corner"),
        prompts=[
            "¿Qué personas te dejan con más calma después de pasar un rato con ellas? Basta con el nombre o un apodo.",
            "¿Hay alguien con quien perdiste el contacto y de quien te gustaría volver a saber? Solo si te parece bien.",
        ],
    ),
    "Room for grief": reading(
        title="Espacio para el duelo",
        instructions=(
            "Una lectura breve sobre la tristeza, que puede llegar incluso cuando una decisión es "
            "acertada."
        ),
        therapist_note=(
            "El duelo por la persona, por el futuro imaginado y por la versión de sí que creía en "
            "él, sin leerlo como un motivo para volver. Se complementa con la hoja de trabajo "
            "“Lo que me duele perder”."
        ),
        text=_text("grief"),
        prompts=[
            "¿Hay algo que echas de menos, y algo que no echas de menos en absoluto? Las dos cosas tienen cabida aquí.",
            "¿Qué te ayuda, aunque sea un poco, cuando la tristeza llega como una ola?",
        ],
    ),
    "When leaving isn't safe yet": reading(
        title="Cuando irte todavía no es seguro",
        instructions="Una lectura breve sobre cómo cuidar tu seguridad, estés donde estés ahora.",
        therapist_note=(
            "Para clientes que no pueden irse o aún no están en condiciones: primero la seguridad, "
            "sin presión, reducción de daños. Mejor junto a “Mi plan de seguridad”, preparado en "
            "sesión."
        ),
        text=_text("not_safe_yet"),
        prompts=[
            "¿Qué te ayuda a estar aunque sea un poco más a salvo en el día a día?",
            "¿Hay algo sobre tu seguridad de lo que te gustaría hablar en tu próxima sesión?",
        ],
    ),
}
