"""The UN and OFAC lists imported whole through the service, as the demo and the command do."""

import pytest

from compliance.sanctions.models import SanctionsEntry
from compliance.sanctions.services.imports import sanctions_import
from compliance.sanctions.tests.helpers import OFAC_ADD, OFAC_ALT, OFAC_SDN, import_un, source

pytestmark = pytest.mark.django_db


def test_the_un_list_imports_whole_and_again_changes_nothing():
    result = import_un()
    assert (result.entries, result.added) == (1003, 1003)
    assert (result.version.individuals, result.version.entities) == (730, 273)
    individuals = SanctionsEntry.objects.filter(entry_type="INDIVIDUAL")
    assert sum(len(e.aliases) for e in individuals) == 2139
    again = import_un()
    assert (again.added, again.changed, again.removed, again.unchanged) == (0, 0, 0, 1003)


def test_the_ofac_list_imports_whole():
    result = sanctions_import(
        list_code="OFAC", file=source(OFAC_SDN), alt=source(OFAC_ALT), add=source(OFAC_ADD), actor=None
    )
    assert (result.entries, result.added) == (7379, 7379)
    malkevich = SanctionsEntry.objects.get(sanctions_list__code="OFAC", reference="26235")
    assert malkevich.name == "Alexander Aleksandrovich MALKEVICH" and malkevich.dates_of_birth == ["1975-06-14"]
