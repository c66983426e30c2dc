"""Homework's part of the REST API: thin views with the portal's and the admin's permissions."""
