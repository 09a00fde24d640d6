"""Writes of the compliance app, one module per area (rules, alerts, SARs)."""
