"""The identity-verification engine: quality gate, ID-card text, face comparison (docs/verification-engine.md).

A plain package with no models and no ORM. The job layer gets a provider with
``verification.engine.providers.get_provider()`` and stores what it answers (``verification.engine.types``).
"""
