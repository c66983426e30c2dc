"""The therapist's workspace in the admin: the client's page with their
homework on it, the sessions with the ways to prepare for them, and the
admin's home page. Built on clients' own admin, which knows no homework."""
