"""The fixed-form exercises in Spanish: the kind brings the whole form, so only the words are
here, and the options stay empty as in English."""

from homework.library.item import LibraryExercise

# Under the English title each gives.
FIXED_FORMS: dict[str, LibraryExercise] = {
    "Keep the full picture": {
        "kind": "written_record",
        "title": "Guardar la historia completa",
        "instructions": (
            "Cuando pase algo difícil, escríbelo poco después, mientras lo tienes fresco. "
            "Más adelante, cuando te invadan los buenos recuerdos, este registro guardará la "
            "historia completa por ti. Escribe tanto o tan poco como quieras."
        ),
        "therapist_note": (
            "Para clientes cuya memoria suaviza los momentos difíciles cuando piensan en volver."
        ),
        "options": {},
    },
    "30 days of no contact": {
        "kind": "urge_log",
        "title": "30 días de contacto cero",
        "instructions": (
            "Cada vez que sientas el impulso de ponerte en contacto (de enviar un mensaje, de "
            "llamar, de mirar su perfil, de volver), anótalo aquí: con qué fuerza lo sentiste, qué "
            "lo provocó y qué hiciste con él.\n\n"
            "No tienes que vencer el impulso para anotarlo. Los impulsos suelen ser más fuertes "
            "los primeros días y van aflojando cuanto más tiempo pasa sin contacto. Podrás verlo en tu "
            "página de progreso.\n\n"
            "Si hubo contacto, anótalo también. No es un fracaso. Es algo que podemos mirar juntos."
        ),
        "therapist_note": (
            "Asígnalo a diario durante 30 días cuando un cliente haya cortado el contacto; rellena "
            "“sin contacto desde el”. La curva de impulsos, los días sin contacto y si los impulsos "
            "van aflojando aparecen en el resumen."
        ),
        "options": {},
    },
    "Notice the pull": {
        "kind": "urge_log",
        "title": "Observar la atracción",
        "instructions": (
            "No hace falta haber cortado el contacto para usar esto. Cada vez que sientas la "
            "atracción hacia esa persona, o las ganas de volver, apúntalo: cuándo, con qué fuerza, "
            "qué lo provocó y qué hiciste. En unas semanas empezará a verse el patrón, y es más "
            "fácil trabajar con un patrón que con sorpresas."
        ),
        "therapist_note": (
            "Reducción de daños para clientes que siguen en contacto o no están preparados para "
            "irse: muestra los desencadenantes sin pedir contacto cero."
        ),
        "options": {},
    },
    "One small boundary": {
        "kind": "boundary_steps",
        "title": "Un pequeño límite",
        "instructions": (
            "Elige un límite lo bastante pequeño como para probarlo esta semana. No el más grande: "
            "uno pequeño. “No contestaré llamadas después de las 10 de la noche.” “Mantendré la "
            "comida del domingo con mi hermana, pase lo que pase.”\n\n"
            "Escríbelo con tus propias palabras y anota cuándo piensas probarlo. Después, vuelve y "
            "cuenta cómo fue y cómo te sentiste. Si no se mantuvo, elige “Todavía no” y escribe qué "
            "se interpuso: es útil saberlo, no es un fracaso. Añade el siguiente paso cuando te "
            "sientas con fuerzas."
        ),
        "therapist_note": (
            "Reducción de daños cuando irse todavía no es posible o no es lo que el cliente elige. "
            "Construye capacidad peldaño a peldaño; valora “Lo intenté” tanto como “Se mantuvo”."
        ),
        "options": {},
    },
    "Who is in my corner": {
        "kind": "support_network",
        "title": "Quién está de mi lado",
        "instructions": (
            "Piensa en las personas que están de tu lado, aunque sea un poco, y pon a las más "
            "cercanas en el centro. Para cada una, anota lo que te aporta: ayudarte a ver las cosas "
            "como son cuando los buenos recuerdos se imponen, cariño y consuelo, ayuda práctica, o "
            "que conoce la historia real.\n\n"
            "Fíjate también en si el tiempo con cada una te da más estabilidad. Hay personas que "
            "nos quieren y aun así nos dejan con más ansiedad, y vale la pena saberlo.\n\n"
            "Añade también grupos, lugares y servicios: una clase, una línea de ayuda, una "
            "biblioteca, un grupo de apoyo."
        ),
        "therapist_note": (
            "El aislamiento refuerza el vínculo. Úsalo al principio y repítelo cada pocas semanas: el "
            "resumen muestra qué ha cambiado desde el último mapa y quién puede ayudar a ver las "
            "cosas como son."
        ),
        "options": {},
    },
    "My safety plan": {
        "kind": "safety_plan",
        "title": "Mi plan de seguridad",
        "instructions": (
            "Este es un plan para un momento que esperas que nunca llegue. Lo rellenaremos juntos "
            "en una sesión, y puedes añadir lo que quieras cuando quieras."
        ),
        "therapist_note": (
            "Complétalo con el cliente en la sesión. El resumen solo dice que existe un plan y "
            "cuándo se actualizó por última vez; su contenido solo se ve cuando lo abres o lo "
            "imprimes con todo el detalle."
        ),
        "options": {},
    },
}
