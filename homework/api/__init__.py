"""Homework's part of the REST API (``/api/v1/``): views stay thin (who asks,
read the input, call a selector or service, answer), with the portal's and
the admin's permissions. ``urls.routes`` lists its routes;
practice.api.urls assembles them with clients.api's."""
