"""Reminders to clients: ``due`` decides what and when (pure), ``services`` scans and sends."""
