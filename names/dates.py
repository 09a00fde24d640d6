"""Dates of birth, whole or partial (a year, a year and month), and how two of them bear on a name match."""

import datetime
import re
from dataclasses import dataclass

_PARTIAL = re.compile(r"^\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?\s*$")


@dataclass(frozen=True, order=True)
class BirthDate:
    """A date of birth known to the year, the month or the day."""

    year: int
    month: int | None = None
    day: int | None = None

    def __str__(self) -> str:
        return "-".join(f"{value:02d}" if index else str(value) for index, value in enumerate(self.parts))

    @property
    def parts(self) -> tuple[int, ...]:
        return tuple(value for value in (self.year, self.month, self.day) if value is not None)


def parse_birth_date(value: "datetime.date | int | str | BirthDate | None") -> BirthDate | None:
    """A BirthDate from a date, a year, or "YYYY", "YYYY-MM", "YYYY-MM-DD" (datetimes keep their date)."""
    if value is None or value == "":
        return None
    if isinstance(value, BirthDate):
        return value
    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, datetime.date):
        return BirthDate(value.year, value.month, value.day)
    if isinstance(value, int):
        return BirthDate(value)
    match = _PARTIAL.match(str(value))
    if not match:
        raise ValueError(f"not a date of birth: {value!r} (expected YYYY, YYYY-MM or YYYY-MM-DD)")
    year, month, day = (int(group) if group else None for group in match.groups())
    if month is not None and not 1 <= month <= 12:
        raise ValueError(f"not a month: {value!r}")
    if day is not None:
        datetime.date(year, month or 1, day)  # raises on an impossible day
    return BirthDate(year, month, day)


# Effects on the score. Agreement raises a little; a clear conflict (years two or more apart) pulls even a
# perfect name match below the default threshold; near misses (one year apart, another month) are the kind
# of slip data entry makes and lower less.
DOB_AGREES = 0.05
DOB_YEAR_AGREES = 0.03
DOB_SWAPPED = 0.02
DOB_DAY_DIFFERS = -0.05
DOB_NEAR_MISS = -0.15
DOB_CONFLICT = -0.35


def birth_date_effect(query: BirthDate, candidate: BirthDate) -> tuple[float, str]:
    """The score adjustment for two known dates of birth, and a sentence saying why."""
    if query.year != candidate.year:
        if abs(query.year - candidate.year) == 1:
            return DOB_NEAR_MISS, f"dates of birth one year apart ({query} / {candidate})"
        return DOB_CONFLICT, f"dates of birth conflict ({query} / {candidate})"
    if query.month is None or candidate.month is None:
        return DOB_YEAR_AGREES, f"year of birth agrees ({query.year})"
    if query.month == candidate.month:
        if query.day is None or candidate.day is None or query.day == candidate.day:
            if query.day is not None and candidate.day is not None:
                return DOB_AGREES, f"date of birth agrees ({query})"
            return DOB_YEAR_AGREES, f"year and month of birth agree ({query.year}-{query.month:02d})"
        return DOB_DAY_DIFFERS, f"dates of birth differ in the day ({query} / {candidate})"
    if query.day is not None and (query.month, query.day) == (candidate.day, candidate.month):
        return DOB_SWAPPED, f"dates of birth agree with day and month swapped ({query} / {candidate})"
    return DOB_NEAR_MISS, f"months of birth differ ({query} / {candidate})"
