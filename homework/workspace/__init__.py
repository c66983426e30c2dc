"""The therapist's workspace in the admin."""
