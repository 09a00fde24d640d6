"""The lists, entries and import endpoints: the contract's shapes, filters, errors and roles."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from backoffice.choices import StaffRole
from compliance.sanctions.models import SanctionsEntry, SanctionsList
from compliance.sanctions.tests.helpers import BASE, FILES, import_file

pytestmark = pytest.mark.django_db
READERS = [StaffRole.COMPLIANCE_OFFICER, StaffRole.MLRO, StaffRole.ADMIN]
IMPORTERS = [StaffRole.MLRO, StaffRole.ADMIN]


def _upload(name: str, field_name: str | None = None) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (FILES / name).read_bytes())


@pytest.fixture
def lists():
    import_file("UN", "un-small-v1.xml")
    import_file("UN", "un-small-v2.xml")
    import_file("OFAC", "ofac-small-sdn.csv")


@pytest.mark.parametrize("role", READERS)
def test_compliance_roles_read_lists_and_entries(staff_client, role, lists):
    client, _ = staff_client(role)
    assert client.get(f"{BASE}/lists").status_code == 200
    assert client.get(f"{BASE}/entries").status_code == 200
    entry = SanctionsEntry.objects.first()
    assert client.get(f"{BASE}/entries/{entry.pk}").status_code == 200


@pytest.mark.parametrize("role", [StaffRole.SUPPORT, StaffRole.FINANCE])
def test_support_and_finance_get_403_on_all_of_it(staff_client, role, lists):
    client, _ = staff_client(role)
    entry = SanctionsEntry.objects.first()
    for url in (f"{BASE}/lists", f"{BASE}/entries", f"{BASE}/entries/{entry.pk}"):
        response = client.get(url)
        assert response.status_code == 403 and response.json()["error"]["code"] == "FORBIDDEN"
    response = client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-v1.xml")}, format="multipart")
    assert response.status_code == 403


def test_without_a_token_it_is_401(api):
    assert api.get(f"{BASE}/lists").status_code == 401
    assert api.post(f"{BASE}/lists/UN/import", {}, format="multipart").status_code == 401


def test_the_lists_answer(staff_client, lists):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    body = client.get(f"{BASE}/lists").json()
    assert body["success"] is True
    by_code = {item["list"]: item for item in body["data"]}
    un = by_code["UN"]
    assert (un["entries"], un["individuals"], un["entities"]) == (6, 4, 2)
    assert un["version"] == 2 and len(un["sha256"]) == 64 and un["importedAt"].endswith("Z")
    assert un["importedBy"] is None  # imported by the system (the fixtures)
    ofac = by_code["OFAC"]
    assert (ofac["entries"], ofac["individuals"], ofac["entities"], ofac["vessels"]) == (4, 2, 1, 1)


def test_the_entries_page_filters_and_shape(staff_client, lists):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    body = client.get(f"{BASE}/entries", {"list": "UN", "limit": 2}).json()
    assert body["pagination"] == {"page": 1, "limit": 2, "total": 6, "totalPages": 3}
    entry = body["data"][0]
    assert set(entry) >= {"id", "list", "reference", "type", "name", "aliases", "datesOfBirth", "nationalities",
                          "programs", "listedOn", "removedAt", "version"}  # fmt: skip
    assert client.get(f"{BASE}/entries", {"list": "UN", "includeRemoved": "true"}).json()["pagination"]["total"] == 7
    individuals = client.get(f"{BASE}/entries", {"type": "INDIVIDUAL"}).json()
    assert individuals["pagination"]["total"] == 6 and {e["type"] for e in individuals["data"]} == {"INDIVIDUAL"}
    vessels = client.get(f"{BASE}/entries", {"type": "VESSEL"}).json()["data"]
    assert [e["name"] for e in vessels] == ["SEA BREEZE"]
    # a search ignores case and accents and finds aliases too, and the publisher's reference
    found = client.get(f"{BASE}/entries", {"search": "thandíwe"}).json()["data"]
    assert [e["reference"] for e in found] == ["QDi.902"]
    for term in ("QDi.901", "qdi.901", "9000001"):  # the reference, any case; the UN's DATAID
        found = client.get(f"{BASE}/entries", {"search": term}).json()["data"]
        assert [e["name"] for e in found] == ["SIPHO BHEKI DLAMINI"], term


@pytest.mark.parametrize("query", [{"type": "PERSON"}, {"includeRemoved": "maybe"}, {"limit": "0"}, {"sortBy": "x"}])
def test_bad_filters_are_400(staff_client, query):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.get(f"{BASE}/entries", query)
    assert response.status_code == 400 and response.json()["error"]["code"] == "VALIDATION_ERROR"


def test_one_entry_with_its_history(staff_client, lists):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    entry = SanctionsEntry.objects.get(reference="QDi.902")
    data = client.get(f"{BASE}/entries/{entry.pk}").json()["data"]
    assert data["name"] == "THANDI NOMSA ZWANE" and data["list"] == "UN" and data["type"] == "INDIVIDUAL"
    assert data["aliases"][0] == {"name": "Thandiwe Zwane", "quality": "GOOD", "kind": "aka"}
    assert data["datesOfBirth"] == ["1970-01-15"] and data["nationalities"] == ["SZ"]
    assert data["programs"] == ["Al-Qaida"] and data["listedOn"] == "2011-03-01" and data["version"] == 2
    assert [(h["version"], h["kind"]) for h in data["history"]] == [(1, "ADDED"), (2, "CHANGED")]
    removed = SanctionsEntry.objects.get(reference="QDi.903")
    assert client.get(f"{BASE}/entries/{removed.pk}").json()["data"]["removedAt"].endswith("Z")


@pytest.mark.parametrize("entry_id", ["not-a-uuid", "00000000-0000-0000-0000-000000000000"])
def test_an_unknown_entry_is_404(staff_client, entry_id):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.get(f"{BASE}/entries/{entry_id}")
    assert response.status_code == 404 and response.json()["error"]["code"] == "NOT_FOUND"


@pytest.mark.parametrize("role", IMPORTERS)
def test_mlros_and_admins_import(staff_client, role):
    client, staff = staff_client(role)
    response = client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-v1.xml")}, format="multipart")
    assert response.status_code == 200, response.content
    assert response.json()["data"] == {
        "list": "UN",
        "entries": 6,
        "added": 6,
        "removed": 0,
        "changed": 0,
        "unchanged": 0,
        "version": 1,
        "screening": {"usersScanned": 0, "matchesCreated": 0, "matchesReopened": 0, "matchesClosed": 0},
    }
    assert SanctionsList.objects.get(code="UN").current_version.imported_by == staff


def test_compliance_officers_may_not_import(staff_client):
    client, _ = staff_client(StaffRole.COMPLIANCE_OFFICER)
    response = client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-v1.xml")}, format="multipart")
    assert response.status_code == 403 and not SanctionsList.objects.exists()


def test_ofac_import_with_alt_and_add(staff_client):
    client, _ = staff_client(StaffRole.MLRO)
    files = {
        "file": _upload("ofac-small-sdn.csv"),
        "alt": _upload("ofac-small-alt.csv"),
        "add": _upload("ofac-small-add.csv"),
    }
    data = client.post(f"{BASE}/lists/ofac/import", files, format="multipart").json()["data"]
    assert data["list"] == "OFAC" and data["added"] == 4
    assert SanctionsEntry.objects.get(reference="101").aliases[0]["name"] == "Sipho DLAMINI"


@pytest.mark.parametrize("name", ["un-cut.xml", "empty.xml", "un-billion-laughs.xml", "ofac-small-sdn.csv"])
def test_a_bad_file_is_400_naming_the_problem_and_changes_nothing(staff_client, name):
    import_file("UN", "un-small-v1.xml")
    client, _ = staff_client(StaffRole.MLRO)
    response = client.post(f"{BASE}/lists/UN/import", {"file": _upload(name)}, format="multipart")
    body = response.json()
    assert response.status_code == 400 and body["error"]["code"] == "VALIDATION_ERROR"
    assert body["error"]["details"]["file"] and body["message"] == body["error"]["message"]
    assert SanctionsList.objects.get(code="UN").current_version.number == 1


def test_a_missing_file_is_400(staff_client):
    client, _ = staff_client(StaffRole.MLRO)
    response = client.post(f"{BASE}/lists/UN/import", {}, format="multipart")
    assert response.status_code == 400 and "file" in response.json()["error"]["details"]


def test_a_shrink_is_409_unless_allowed(staff_client):
    import_file("UN", "un-small-v1.xml")
    client, _ = staff_client(StaffRole.MLRO)
    response = client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-shrink.xml")}, format="multipart")
    assert response.status_code == 409 and response.json()["error"]["code"] == "LIST_SHRINK"
    response = client.post(
        f"{BASE}/lists/UN/import", {"file": _upload("un-small-shrink.xml"), "allowShrink": "true"}, format="multipart"
    )
    assert response.status_code == 200 and response.json()["data"]["removed"] == 4


def test_the_same_file_twice_changes_nothing(staff_client):
    client, _ = staff_client(StaffRole.ADMIN)
    client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-v1.xml")}, format="multipart")
    data = client.post(f"{BASE}/lists/UN/import", {"file": _upload("un-small-v1.xml")}, format="multipart").json()[
        "data"
    ]
    assert (data["added"], data["unchanged"], data["version"]) == (0, 6, None)


def test_a_bad_list_code_is_400(staff_client):
    client, _ = staff_client(StaffRole.ADMIN)
    response = client.post(f"{BASE}/lists/eu-1/import", {"file": _upload("ftm-small.jsonl")}, format="multipart")
    assert response.status_code == 400
