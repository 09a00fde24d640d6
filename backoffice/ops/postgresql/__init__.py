"""Django's PostgreSQL backend, with a short deadline on the check of a reused connection (``base``)."""
