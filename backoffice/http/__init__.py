"""How a request travels before and around DRF: the gunicorn worker and its configuration, the
middleware, the request log, the client address and the rate limits.

Imports nothing at package level: ``gunicorn_conf`` is loaded before Django is set up.
"""
