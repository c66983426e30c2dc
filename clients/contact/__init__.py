"""The client's safe-contact profile: which channels are safe, where, when and how often, its
reading of safe hours, the reads, the form both sides fill in, and its pages in the portal and
the admin. Writes are in clients.services.contact."""
