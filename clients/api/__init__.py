"""The REST routes for what clients/ owns: tokens, and the staff's clients, sessions and access log."""
