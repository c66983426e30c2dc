"""The worksheets in Spanish: the same questions under the same keys, so answers, scores and flags
line up with the English ones; only the words are new."""

from homework.library.item import LibraryExercise
from homework.library.worksheets import long_text, scale

# Under the English title each gives.
WORKSHEETS: dict[str, LibraryExercise] = {
    "Where do I abandon myself?": {
        "kind": "worksheet",
        "title": "¿Cuándo me dejo de lado?",
        "instructions": (
            "A todo el mundo le pasa: a veces dejamos de lado lo que necesitamos para mantener la "
            "paz. Esta hoja es una forma de notar cuándo te pasa a ti, con calma y sin culparte. "
            "Piensa en un momento reciente y responde lo que puedas."
        ),
        "therapist_note": (
            "Autoabandono en la relación: un punto de partida para un pequeño límite."
        ),
        "options": {
            "questions": [
                long_text(
                    "moment",
                    "Piensa en un momento reciente en el que aceptaste algo que no te parecía bien "
                    "para ti. ¿Qué pasó?",
                    required=True,
                ),
                long_text("wanted", "¿Qué querías o necesitabas en ese momento?"),
                {
                    "key": "what_got_in_the_way",
                    "type": "single_choice",
                    "text": "¿Qué hizo que te costara mantenerte en eso?",
                    "required": False,
                    "choices": [
                        "Me daba miedo cómo iba a reaccionar",
                        "No quería perder un buen momento",
                        "No sabía si tenía derecho a quererlo",
                        "Solo me di cuenta después",
                        "Otra cosa",
                    ],
                },
                long_text(
                    "next_time",
                    "¿Cómo sería, la próxima vez, quedarte de tu lado, aunque sea un poco?",
                ),
                scale(
                    "kindness",
                    "¿Con cuánta amabilidad te estás mirando mientras respondes a esto?",
                    "con dureza",
                    "con amabilidad",
                ),
            ]
        },
    },
    "Things that make me feel alive": {
        "kind": "worksheet",
        "title": "Cosas que me hacen sentir con vida",
        "instructions": (
            "Una relación difícil puede ir encogiendo una vida hasta que queda poco que sea solo "
            "tuyo. Esta es una pequeña forma de volver. Piensa en cualquier cosa, de cualquier "
            "momento de tu vida, que te haya hecho sentirte tú, y luego elige una para probar esta "
            "semana."
        ),
        "therapist_note": (
            "Reconectar con actividades e identidad fuera de la relación (reducción de daños)."
        ),
        "options": {
            "questions": [
                long_text(
                    "list",
                    "¿Qué te ha hecho sentir con vida, o sentirte tú? Grande o pequeño, de "
                    "cualquier momento.",
                    required=True,
                ),
                {
                    "key": "kinds",
                    "type": "multiple_choice",
                    "text": "¿Qué tipo de cosas son?",
                    "required": False,
                    "choices": [
                        "Mover el cuerpo",
                        "Crear algo",
                        "Estar al aire libre",
                        "Estar con gente",
                        "Música",
                        "Aprender algo",
                        "Ratos tranquilos a solas",
                    ],
                },
                {
                    "key": "this_week",
                    "type": "short_text",
                    "text": "Una cosa de tu lista que podrías hacer esta semana",
                    "required": False,
                },
                {"key": "when", "type": "date", "text": "¿Cuándo lo harás?", "required": False},
                long_text(
                    "afterwards",
                    "Después: ¿cómo fue?",
                    help="Puedes volver y añadirlo más tarde.",
                ),
            ]
        },
    },
    "Sitting with a hard feeling for ten minutes": {
        "kind": "worksheet",
        "title": "Diez minutos con una emoción difícil",
        "instructions": (
            "Cuando llegue una emoción difícil (soledad, añoranza, pánico), prueba a quedarte con "
            "ella diez minutos antes de hacer nada al respecto. Pon un temporizador. Respira "
            "despacio, fíjate en qué parte del cuerpo la notas y deja que suba y baje como una "
            "ola.\n\n"
            "No se trata de hacer que desaparezca. Estás aprendiendo que puedes atravesarla sin "
            "recurrir a esa persona. Cualquier rato que te hayas quedado con ella cuenta, aunque "
            "sea un minuto. Después, responde a estas preguntas."
        ),
        "therapist_note": (
            "Tolerancia al malestar: practicar la autorregulación en lugar de usar a la pareja "
            "para regularse."
        ),
        "options": {
            "questions": [
                {
                    "key": "feeling",
                    "type": "short_text",
                    "text": "¿Qué emoción era?",
                    "required": True,
                },
                scale("start", "¿Con qué fuerza la sentías al principio?", "leve", "abrumadora"),
                scale("end", "¿Con qué fuerza la sentías al final?", "leve", "abrumadora"),
                long_text("body", "¿En qué parte del cuerpo la sentiste, y qué notaste?"),
                long_text("helped", "¿Qué te ayudó a quedarte con ella?"),
            ]
        },
    },
    "What I'm grieving": {
        "kind": "worksheet",
        "title": "Lo que me duele perder",
        "instructions": (
            "Aunque irte sea lo correcto, duele. Puede que estés en duelo por la persona, por el "
            "futuro que imaginabas y por la versión de ti que creía en ese futuro. Todo eso es "
            "real. Tómate tu tiempo con estas preguntas. No hace falta responderlas todas a la vez."
        ),
        "therapist_note": (
            "Trabajo de duelo tras la ruptura (o mientras ocurre); dosifícalo y vuelve a él."
        ),
        "options": {
            "questions": [
                long_text("miss", "¿Qué echas de menos de esa persona, y de la relación?"),
                long_text("future", "¿Qué futuro imaginabas, del que ahora te estás despidiendo?"),
                long_text(
                    "who_i_was",
                    "¿Quién eras cuando creías en ese futuro? ¿Qué te gustaría conservar de esa "
                    "persona que eras?",
                ),
                long_text(
                    "to_a_friend",
                    "¿Qué le dirías a alguien querido que estuviera pasando por esta misma pérdida?",
                ),
            ]
        },
    },
    "Weekly check-in: pull and clarity": {
        "kind": "worksheet",
        "title": "Seguimiento semanal: atracción y claridad",
        "instructions": (
            "Una vez por semana, dedica dos minutos a ver cómo estás. No hay respuestas correctas, "
            "y esto no es un examen ni un diagnóstico. Es una forma de notar, con el paso de las "
            "semanas y junto con tu terapeuta, cómo van cambiando las cosas.\n\n"
            "En la pregunta sobre la atracción de volver, un número más bajo quiere decir una "
            "semana más llevadera. Responde a cada una según cómo fue de verdad la semana."
        ),
        "therapist_note": (
            "Un seguimiento de reflexión propio, no una medida validada. El total (la media "
            "de las cinco, con la atracción invertida; más alto = más estabilidad) se muestra a lo "
            "largo del tiempo en el portal y en el resumen. Una respuesta de 3 o menos en "
            "seguridad se marca para que la revises."
        ),
        "options": {
            "questions": [
                scale(
                    "pull",
                    "¿Con qué fuerza has sentido la atracción de volver esta semana?",
                    "casi nada",
                    "muy fuerte",
                    scored=True,
                    reverse=True,
                ),
                scale(
                    "clarity",
                    "¿Hasta qué punto tienes claro lo que quieres?",
                    "nada claro",
                    "muy claro",
                    scored=True,
                ),
                scale(
                    "supported",
                    "¿Cuánto apoyo has sentido?",
                    "sin apoyo",
                    "mucho apoyo",
                    scored=True,
                ),
                scale(
                    "safe",
                    "¿Hasta qué punto te has sentido a salvo?",
                    "nada a salvo",
                    "a salvo",
                    scored=True,
                    review_at_or_below=3,
                ),
                scale(
                    "kindness",
                    "¿Con cuánto cariño te has tratado?",
                    "con dureza",
                    "con cariño",
                    scored=True,
                ),
                long_text(
                    "anything_else",
                    "¿Hay algo de esta semana que te gustaría que supiera tu terapeuta?",
                ),
            ],
            "score": {"method": "mean", "better": "higher", "label": "Estabilidad"},
        },
    },
    "Knowing is not the same as leaving": {
        "kind": "worksheet",
        "title": "Saber no es lo mismo que irse",
        "instructions": (
            "Decidir algo y poder llevarlo a cabo funcionan con sistemas distintos. La atracción "
            "de volver es una respuesta de apego, no una prueba de que tu decisión esté "
            "equivocada. Estas preguntas te ayudan a sostener las dos cosas: lo que sabes y lo que "
            "sientes."
        ),
        "therapist_note": (
            "Para clientes que interpretan su ambivalencia como debilidad o como prueba de que "
            "deberían volver."
        ),
        "options": {
            "questions": [
                long_text("know", "¿Qué sabes, con claridad, sobre esta relación?", required=True),
                long_text(
                    "when_pull",
                    "¿Cuándo aparece con más fuerza la atracción de volver? ¿Qué está pasando a tu "
                    "alrededor en esos momentos?",
                ),
                long_text(
                    "answer_the_pull",
                    "Si esa atracción es una respuesta antigua y profunda, y no información nueva, "
                    "¿qué te gustaría decirle?",
                ),
                scale(
                    "self_blame",
                    "¿Cuánto te estás culpando ahora mismo por sentir esa atracción?",
                    "nada",
                    "mucho",
                ),
            ]
        },
    },
    "The cycle, as I have lived it": {
        "kind": "worksheet",
        "title": "El ciclo, tal como lo he vivido",
        "instructions": (
            "En muchas relaciones difíciles, los momentos dolorosos y los momentos de cariño se "
            "van turnando, y los de cariño son reales. También son parte de lo que mantiene el "
            "patrón. Poner por escrito una vuelta del ciclo puede ayudarte a reconocerla la "
            "próxima vez."
        ),
        "therapist_note": (
            "Psicoeducación sobre el refuerzo intermitente, a partir de un ejemplo del propio "
            "cliente."
        ),
        "options": {
            "questions": [
                long_text(
                    "hard_time", "Describe un momento difícil con esa persona.", required=True
                ),
                long_text("warmth_returned", "¿Qué vino después? ¿Cómo volvió el cariño?"),
                long_text(
                    "what_it_did",
                    "Después, ¿cómo cambió el momento de cariño lo que sentías sobre el momento "
                    "difícil?",
                ),
                {
                    "key": "pattern",
                    "type": "yes_no",
                    "text": "¿Reconoces esto como algo que se repite?",
                    "required": False,
                },
                long_text(
                    "remember",
                    "¿Qué te gustaría recordar la próxima vez que llegue un momento de cariño?",
                ),
            ]
        },
    },
    "Before I reply": {
        "kind": "worksheet",
        "title": "Antes de responder",
        "instructions": (
            "Cuando te llegue un mensaje de esa persona, no tienes que contestar enseguida. Antes "
            "de decidir, dedica unos minutos a estas preguntas. Elijas lo que elijas después, lo "
            "habrás elegido tú, y no el impulso por ti."
        ),
        "therapist_note": (
            "Para clientes en contacto (o con hijos en común o vínculos prácticos) que responden "
            "por impulso."
        ),
        "options": {
            "questions": [
                {
                    "key": "message",
                    "type": "short_text",
                    "text": "¿Qué decía el mensaje, en pocas palabras?",
                    "required": False,
                },
                scale(
                    "urge",
                    "¿Con qué fuerza sientes ahora mismo el impulso de responder?",
                    "apenas lo noto",
                    "abrumador",
                ),
                {
                    "key": "want",
                    "type": "single_choice",
                    "text": "¿Qué esperas que te dé responder?",
                    "required": False,
                    "choices": [
                        "Volver a sentirme cerca",
                        "Que pare el malestar",
                        "Explicarme",
                        "Arreglar algo",
                        "Algo práctico (hijos, dinero, pertenencias)",
                        "No lo sé",
                    ],
                },
                long_text("before", "¿Qué ha pasado otras veces cuando has respondido rápido?"),
                {
                    "key": "wait",
                    "type": "yes_no",
                    "text": "¿Podrías esperar una hora, o hablar antes con alguien?",
                    "required": False,
                },
            ]
        },
    },
}
