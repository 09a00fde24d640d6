"""Suspicious activity reports, their transitions and narrative versions."""

from compliance.sars.models.sar import SAR, SARNarrativeVersion, SARTransition

__all__ = ["SAR", "SARNarrativeVersion", "SARTransition"]
