"""The PEP list, its name keys, matches against our users and screening runs."""

from compliance.peps.models.pep import PEP, PEPMatch, PEPMatchEvent, PEPNameKey, ScreeningRun, UserScreening

__all__ = ["PEP", "PEPMatch", "PEPMatchEvent", "PEPNameKey", "ScreeningRun", "UserScreening"]
