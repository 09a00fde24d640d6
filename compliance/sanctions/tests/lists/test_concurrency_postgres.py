"""Imports at the same moment, on PostgreSQL: the list's row lock queues them, so versions never collide."""

import pytest

from backoffice.tests.concurrency import postgres_only, run_in_threads  # noqa: F401  (fixture)
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsEntryChange
from compliance.sanctions.tests.helpers import import_file

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("postgres_only")]


def test_the_same_first_file_four_times_at_once_makes_one_version():
    outcomes = run_in_threads(4, lambda i: import_file("UN", "un-small-v1.xml"))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(o.added for o in outcomes) == [0, 0, 0, 6]
    assert ListVersion.objects.count() == 1 and SanctionsEntry.objects.count() == 6


def test_two_different_files_at_once_become_two_versions_in_turn():
    import_file("UN", "un-small-v1.xml")
    names = ["un-small-v2.xml", "un-small-shrink.xml"]
    outcomes = run_in_threads(2, lambda i: import_file("UN", names[i], allow_shrink=True))
    assert not [o for o in outcomes if isinstance(o, Exception)], outcomes
    assert sorted(ListVersion.objects.values_list("number", flat=True)) == [1, 2, 3]
    # whichever came second, each version's delta is against the one before it
    for version in ListVersion.objects.filter(number__gt=1):
        kinds = list(SanctionsEntryChange.objects.filter(version=version).values_list("kind", flat=True))
        assert kinds.count("ADDED") == version.added and kinds.count("REMOVED") == version.removed
