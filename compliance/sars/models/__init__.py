"""Suspicious activity reports, their transitions, narrative versions, draft edits and filed copies."""

from compliance.sars.models.sar import SAR, SARDraftEdit, SARFiledExport, SARNarrativeVersion, SARTransition

__all__ = ["SAR", "SARDraftEdit", "SARFiledExport", "SARNarrativeVersion", "SARTransition"]
