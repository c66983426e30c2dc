"""The PHQ-9 and the GAD-7 in their published Spanish: Pfizer's PHQ Screeners, Spanish for the USA
(phqscreeners.com). The PHQ-9's items, answers and closing "how difficult" question are word for
word as on its form ("Cuestionario sobre la salud del paciente-9 (PHQ-9)"), checked against a text
copy of it; the GAD-7's items as several independent copies of its form give them alike, its
answers headed "Nunca" where the PHQ-9's say "Ningún día", and its closing question in the words
the PHQ-9 form gives it (no text copy of the GAD-7 form's own was found to check it against).
Points, bands (by number), cutoff, reliable change, LOINC codes and the watch on PHQ-9 item 9 are
the English ones' (homework/library/measures/phq_gad.py): the same measure, so a Spanish score
reads on the same scale as an English one. The band and score labels are in Spanish for a
Spanish-speaking therapist.

The published Spanish speaks to the client as usted. The rest of the portal says tú, but these
pages keep usted, and so do the few sentences we add to their instructions, so each reads as one
form: a measure's words are never rewritten (CLINICAL.md, Standard measures).

The PCL-5, DASS-21 and WSAS stay in English only: no published Spanish translation of them is
offered here under terms that allow it."""

from homework.library.item import LibraryExercise
from homework.library.measures.phq_gad import (
    gad7_questions,
    gad7_score,
    phq9_questions,
    phq9_score,
)

PHQ9_OFTEN = ["Ningún día", "Varios días", "Más de la mitad de los días", "Casi todos los días"]
GAD7_OFTEN = ["Nunca", "Varios días", "Más de la mitad de los días", "Casi todos los días"]
DIFFICULT = ["No ha sido difícil", "Un poco difícil", "Muy difícil", "Extremadamente difícil"]

PHQ9_ITEMS = [
    "Poco interés o placer en hacer cosas",
    "Se ha sentido decaído(a), deprimido(a) o sin esperanzas",
    "Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado",
    "Se ha sentido cansado(a) o con poca energía",
    "Sin apetito o ha comido en exceso",
    "Se ha sentido mal con usted mismo(a) – o que es un fracaso o que ha quedado mal con usted "
    "mismo(a) o con su familia",
    "Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico "
    "o ver la televisión",
    "¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? o lo contrario "
    "– muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal",
    "Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera",
]
GAD7_ITEMS = [
    "Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta",
    "No ha sido capaz de parar o controlar su preocupación",
    "Se ha preocupado demasiado por motivos diferentes",
    "Ha tenido dificultad para relajarse",
    "Se ha sentido tan inquieto(a) que no ha podido quedarse quieto(a)",
    "Se ha molestado o irritado fácilmente",
    "Ha tenido miedo de que algo terrible fuera a pasar",
]
DIFFICULTY = (
    "Si marcó cualquiera de los problemas, ¿qué tanta dificultad le han dado estos problemas "
    "para hacer su trabajo, encargarse de las tareas del hogar, o llevarse bien con otras "
    "personas?"
)
ASKED = (
    "Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes "
    "problemas?"
)
# Ours, not the form's: in usted like the form it stands on (the portal elsewhere says tú).
EVERY_QUESTION = (
    "Por favor, responda todas las preguntas: cada una cuenta. La última pregunta es suya: puede "
    "contestarla o dejarla en blanco."
)
# The forms' own footnote.
TERMS = (
    "Elaborado por los doctores Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke y colegas, "
    "mediante una subvención educativa otorgada por Pfizer Inc. No se requiere permiso para "
    "reproducir, traducir, presentar o distribuir."
)
SPANISH_SOURCE = "Versión en español para EE. UU.: Pfizer Inc., PHQ Screeners (phqscreeners.com)."

PHQ9: LibraryExercise = {
    "kind": "worksheet",
    "title": "Cuestionario sobre la salud del paciente-9 (PHQ-9)",
    "instructions": f"{ASKED}\n\n{EVERY_QUESTION}",
    "therapist_note": (
        "Cuestionario sobre la salud del paciente (depresión), en su versión publicada en español "
        "para EE. UU. (Pfizer, PHQ Screeners), palabra por palabra; trata a la persona de usted, "
        "como el original. Las mismas preguntas, puntos y bandas que el PHQ-9 en inglés, y sus "
        "puntuaciones siguen la misma serie. Total 0–27: 0–4 mínima, 5–9 leve, 10–14 moderada, "
        "15–19 moderadamente grave, 20–27 grave. Cualquier respuesta por encima de 0 en la "
        "pregunta 9 se marca para su revisión. Punto de corte 10 (Kroenke et al. 2001: "
        "sensibilidad y especificidad del 88 % para la depresión mayor); cambio fiable 6 puntos "
        "(Gyani et al. 2013). Fuente: Kroenke, Spitzer y Williams (2001), J Gen Intern Med "
        "16:606–613; versión en español: Pfizer Inc., PHQ Screeners. Condiciones: uso libre, no "
        "se requiere permiso."
    ),
    "options": {
        "questions": phq9_questions(PHQ9_ITEMS, PHQ9_OFTEN, DIFFICULTY, DIFFICULT),
        "score": phq9_score(
            label="Total del PHQ-9",
            band_labels=["Mínima", "Leve", "Moderada", "Moderadamente grave", "Grave"],
            source=(
                "Kroenke K, Spitzer RL, Williams JBW. The PHQ-9: validity of a brief depression "
                "severity measure. J Gen Intern Med 2001;16:606–613. " + SPANISH_SOURCE
            ),
            terms=TERMS,
        ),
    },
}

GAD7: LibraryExercise = {
    "kind": "worksheet",
    "title": "Escala de ansiedad generalizada (GAD-7)",
    "instructions": f"{ASKED}\n\n{EVERY_QUESTION}",
    "therapist_note": (
        "Escala del trastorno de ansiedad generalizada de 7 preguntas, en su versión publicada "
        "en español para EE. UU. (Pfizer, PHQ Screeners), palabra por palabra; trata a la "
        "persona de usted, como el original. Las mismas preguntas, puntos y bandas que el GAD-7 "
        "en inglés, y sus puntuaciones siguen la misma serie. Total 0–21: 0–4 mínima, 5–9 leve, "
        "10–14 moderada, 15–21 grave. Punto de corte 10 (Spitzer et al. 2006: sensibilidad del "
        "89 %, especificidad del 82 %); cambio fiable 4 puntos (Gyani et al. 2013). Fuente: "
        "Spitzer, Kroenke, Williams y Löwe (2006), Arch Intern Med 166:1092–1097; versión en "
        "español: Pfizer Inc., PHQ Screeners. Condiciones: uso libre, no se requiere permiso."
    ),
    "options": {
        "questions": gad7_questions(GAD7_ITEMS, GAD7_OFTEN, DIFFICULTY, DIFFICULT),
        "score": gad7_score(
            label="Total del GAD-7",
            band_labels=["Mínima", "Leve", "Moderada", "Grave"],
            source=(
                "Spitzer RL, Kroenke K, Williams JBW, Löwe B. A brief measure for assessing "
                "generalized anxiety disorder: the GAD-7. Arch Intern Med 2006;166:1092–1097. "
                + SPANISH_SOURCE
            ),
            terms=TERMS,
        ),
    },
}

# Under the English title each gives.
MEASURES: dict[str, LibraryExercise] = {"PHQ-9": PHQ9, "GAD-7": GAD7}
