"""A list file previewed, kept under a signed ticket, imported once (the admin's import; import_peps reads alike)."""

from pathlib import Path

import pytest
from django.core import signing

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory
from compliance.peps.errors import PepImportExpired, UnreadablePepFile
from compliance.peps.models.pep import PEP
from compliance.peps.services.imports import TICKET_SALT, pep_file_rows, pep_import_confirm, pep_import_stage

pytestmark = pytest.mark.django_db
CSV = (Path(__file__).parent / "files" / "peps.csv").read_bytes()


@pytest.fixture
def officer(media):
    return StaffFactory(role=StaffRole.COMPLIANCE_OFFICER)


def test_a_staged_file_writes_nothing_until_confirmed_then_imports_once(officer, media):
    staged = pep_import_stage(data=CSV, filename="peps.csv", actor=officer, source="Gazette")
    assert staged.format == "csv" and staged.entries > 0 and staged.preview.dry_run
    assert staged.preview.created == staged.entries and PEP.objects.count() == 0
    assert len(list((media / "pep-imports").iterdir())) == 1

    result, filename = pep_import_confirm(ticket=staged.ticket, actor=officer)
    assert filename == "peps.csv" and result.created == staged.entries == PEP.objects.count()
    assert list((media / "pep-imports").iterdir()) == []  # the stored copy goes once imported

    with pytest.raises(PepImportExpired, match="already imported"):
        pep_import_confirm(ticket=staged.ticket, actor=officer)
    assert PEP.objects.count() == staged.entries


def test_a_forged_ticket_is_refused_and_imports_nothing(officer):
    forged = signing.dumps({"path": "pep-imports/x.txt"}, salt="someone-else")
    with pytest.raises(PepImportExpired):
        pep_import_confirm(ticket=forged, actor=officer)
    with pytest.raises(PepImportExpired):
        pep_import_confirm(ticket=signing.dumps({"path": "../../etc/passwd"}, salt=TICKET_SALT) + "x", actor=officer)
    assert PEP.objects.count() == 0


def test_a_file_that_is_not_utf8_or_not_a_list_names_the_reason():
    with pytest.raises(UnreadablePepFile) as caught:
        pep_file_rows(data="Nomvula;Dlamini".encode("utf-16"))
    assert caught.value.details == {"file": ["The file is not UTF-8 text."]}
    with pytest.raises(UnreadablePepFile) as caught:
        pep_file_rows(data=b"\x00\x01 not a list", format="json")
    assert caught.value.details["file"]
