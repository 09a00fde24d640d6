"""Reads of the compliance app, one module per area."""
