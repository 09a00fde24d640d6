"""What running the back office needs: structured logs and their context, metrics, traces,
periodic work and beat, the database's deadlines and replica routing.

Imports nothing at package level: gunicorn's configuration imports ``metrics`` and ``logs`` before
Django is set up.
"""
