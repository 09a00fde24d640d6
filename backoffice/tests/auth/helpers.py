"""The routed views, for the tests that hold every endpoint to the role tables (the role matrix, the
support and finance walk)."""

from django.urls import URLPattern, URLResolver


def walk_routes(patterns, prefix=""):
    """(route, callback) of every URL pattern under ``patterns``, nested resolvers included."""
    for entry in patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from walk_routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.callback
