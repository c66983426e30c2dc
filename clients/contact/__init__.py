"""The client's safe-contact profile: which channels are safe, where, when and how often
(``models``), its reading of safe hours (``hours``), the reads (``selectors``), the form both
sides fill in (``forms``), and its pages in the portal (``views``) and the admin (``admin``).
Writes are in clients.services.contact."""
