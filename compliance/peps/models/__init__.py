"""The PEP list, its name keys, matches against our users, screening runs and names screened by hand."""

from compliance.peps.models.pep import (
    PEP,
    NameScreening,
    PEPMatch,
    PEPMatchEvent,
    PEPNameKey,
    ScreeningRun,
    UserScreening,
)

__all__ = ["PEP", "NameScreening", "PEPMatch", "PEPMatchEvent", "PEPNameKey", "ScreeningRun", "UserScreening"]
