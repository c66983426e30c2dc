"""A client's standard measures as a FHIR R4 Bundle, for an EHR to chart (issue 37): built as
plain data in ``resources``, put together and checked against fhir.resources' R4B models in
``bundle``."""
