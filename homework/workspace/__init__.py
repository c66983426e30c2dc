"""The therapist's workspace in the admin: the client's page with their homework on it and the
sessions with the ways to prepare for them (client_admin), the exercise library (exercise_admin),
work set for a client (assignment_admin), clients' entries (entry_admin), the pages behind them
(views), their forms and list filters, how entries and schedules read there (display), and the
admin's home page (site). Built on clients' own admin, which knows no homework."""
