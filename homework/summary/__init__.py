"""The session summary: everything since the last session, on a page or two.

``selectors`` reads (scoped by the acting user), ``render`` turns what was
read into HTML and PDF bytes without touching the database, and ``services``
keeps finished PDFs in storage so a second download is instant.
"""
