"""The session summary: ``selectors`` reads, ``render`` draws HTML and PDF without the database,
``services`` stores finished PDFs."""
