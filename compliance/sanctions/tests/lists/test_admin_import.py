"""The admin site's upload form, submitted as a browser sends it, and the progress page following the import to its
answer; the pages that show lists, versions, deltas and entries open for compliance roles and stay closed to support
and finance.

Without a broker an import runs in a thread of the server once the upload commits. Here the upload's import runs
inside its request instead: on SQLite the test database is one shared-cache memory database with no busy wait, so
the thread's writes and the request's own session save collided ("database table is locked", the session then
lost: 400) under load in CI. The thread path has its tests in backoffice (operations/test_tasks.py), and a running
import's page has its own test below."""

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tasks import dispatch, wait_for_background
from backoffice.tests.factories import StaffFactory
from compliance.sanctions.models import ListVersion, SanctionsEntry, SanctionsEntryChange, SanctionsImport
from compliance.sanctions.services import background
from compliance.sanctions.services.background import _progress_key, sanctions_import_start
from compliance.sanctions.tests.helpers import FILES, fixture, import_file

IMPORT_URL = "admin:compliance_sanctions_import"


@pytest.fixture(autouse=True)
def _import_in_the_request(monkeypatch):
    monkeypatch.setattr(background, "dispatch", lambda task, background=True, **rest: dispatch(task, **rest))


def _client(role: str) -> Client:
    client = Client()
    client.force_login(StaffFactory(role=role))
    return client


def _upload(name: str) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, (FILES / name).read_bytes())


def _import(client, **data):
    response = client.post(reverse(IMPORT_URL), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert wait_for_background(timeout=60)
    return client.get(response["Location"])


@pytest.mark.django_db(transaction=True)
def test_the_upload_form_imports_and_the_page_shows_the_counts(media):
    client = _client(StaffRole.MLRO)
    form = client.get(reverse(IMPORT_URL))
    assert form.status_code == 200 and b'id="sanctions-import-form"' in form.content
    page = _import(client, list_code="un", file=_upload("un-small-v1.xml"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-status="COMPLETED"' in html and 'data-count="added">6<' in html
    row = SanctionsImport.objects.get()
    assert row.status == "COMPLETED" and row.version.number == 1 and row.created_by.role == StaffRole.MLRO
    assert not list(media.rglob("sanctions-imports/*/*"))  # the stored upload is gone

    page = _import(client, list_code="UN", file=_upload("un-small-v2.xml"))
    assert 'data-count="changed">1<' in page.content.decode()
    assert ListVersion.objects.get(number=2).removed == 1


@pytest.mark.django_db(transaction=True)
def test_an_ofac_upload_with_its_alt_and_add_files(media):
    client = _client(StaffRole.ADMIN)
    _import(
        client,
        list_code="OFAC",
        file=_upload("ofac-small-sdn.csv"),
        alt=_upload("ofac-small-alt.csv"),
        add=_upload("ofac-small-add.csv"),
    )
    assert SanctionsEntry.objects.get(reference="101").aliases[0]["name"] == "Sipho DLAMINI"


@pytest.mark.django_db(transaction=True)
def test_a_refused_file_shows_why_and_changes_nothing(media):
    import_file("UN", "un-small-v1.xml")
    client = _client(StaffRole.MLRO)
    page = _import(client, list_code="UN", file=_upload("un-cut.xml"))
    html = page.content.decode()
    assert 'data-status="FAILED"' in html and "cut off" in html and "exactly as it was" in html
    page = _import(client, list_code="UN", file=_upload("un-small-shrink.xml"))
    assert "remove 4 of the 6 entries" in page.content.decode()
    assert ListVersion.objects.count() == 1
    page = _import(client, list_code="UN", file=_upload("un-small-shrink.xml"), allow_shrink="on")
    assert 'data-status="COMPLETED"' in page.content.decode() and ListVersion.objects.count() == 2


@pytest.mark.django_db
def test_the_form_refuses_a_bad_code_a_missing_file_and_alt_files_outside_ofac(media):
    client = _client(StaffRole.MLRO)
    answer = client.post(reverse(IMPORT_URL), {"list_code": "un list", "file": _upload("un-small-v1.xml")})
    assert answer.status_code == 200 and b"capital letters" in answer.content
    answer = client.post(reverse(IMPORT_URL), {"list_code": "UN"})
    assert answer.status_code == 200 and b"This field is required" in answer.content
    answer = client.post(
        reverse(IMPORT_URL),
        {"list_code": "UN", "file": _upload("un-small-v1.xml"), "alt": _upload("ofac-small-alt.csv")},
    )
    assert answer.status_code == 200 and b"Only OFAC" in answer.content
    assert not SanctionsImport.objects.exists()


@pytest.mark.django_db
def test_only_mlros_and_admins_see_the_upload_form():
    for role in (StaffRole.COMPLIANCE_OFFICER, StaffRole.SUPPORT, StaffRole.FINANCE):
        assert _client(role).get(reverse(IMPORT_URL)).status_code == 403


@pytest.mark.django_db
def test_the_list_version_delta_and_entry_pages_open_for_compliance_roles_only():
    import_file("UN", "un-small-v1.xml")
    import_file("UN", "un-small-v2.xml")
    version = ListVersion.objects.get(number=2)
    entry = SanctionsEntry.objects.get(reference="QDi.902")
    urls = [
        reverse("admin:compliance_sanctionslist_changelist"),
        reverse("admin:compliance_sanctionslist_change", args=[version.sanctions_list_id]),
        reverse("admin:compliance_listversion_changelist"),
        reverse("admin:compliance_listversion_change", args=[version.pk]),
        reverse("admin:compliance_sanctionsentrychange_changelist") + f"?version__id__exact={version.pk}",
        reverse("admin:compliance_sanctionsentry_changelist") + "?q=thandiwe",
        reverse("admin:compliance_sanctionsentry_change", args=[entry.pk]),
    ]
    officer = _client(StaffRole.COMPLIANCE_OFFICER)
    for url in urls:
        assert officer.get(url).status_code == 200, url
    delta = officer.get(urls[4]).content.decode()
    assert "THANDI NOMSA ZWANE" in delta and "JABULANI SIMELANE" in delta and "MUSA KHUMALO" in delta
    assert "SIPHO BHEKI DLAMINI" not in delta  # unchanged in version 2
    assert SanctionsEntryChange.objects.filter(version=version).count() == 4  # 1 added, 1 changed, 1 removed, 1 quiet
    page = officer.get(urls[6]).content.decode()
    assert "Nomsa Zwane" in page and ">Changed<" in page  # the history row's kind, in words
    for role in (StaffRole.SUPPORT, StaffRole.FINANCE):
        client = _client(role)
        for url in urls:
            assert client.get(url).status_code in (302, 403), (role, url)


@pytest.mark.django_db
def test_a_running_import_page_refreshes_itself_and_shows_how_far_it_got(media, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False):  # queued, no worker has taken it yet
        row = sanctions_import_start(list_code="UN", files={"file": fixture("un-small-v1.xml")}, actor=None)
    client = _client(StaffRole.MLRO)
    url = reverse("admin:compliance_sanctions_import_progress", args=[row.pk])
    html = client.get(url).content.decode()
    assert 'http-equiv="refresh"' in html and 'data-status="QUEUED"' in html

    SanctionsImport.objects.filter(pk=row.pk).update(status="RUNNING")
    cache.set(_progress_key(row.pk), {"stage": "writing", "done": 3, "total": 6}, 60)
    html = client.get(url).content.decode()
    assert 'http-equiv="refresh"' in html and "writing, 3 of 6 entries" in html

    SanctionsImport.objects.filter(pk=row.pk).update(status="FAILED", error="the file is cut off")
    html = client.get(url).content.decode()
    assert 'http-equiv="refresh"' not in html and "Not imported: the file is cut off" in html
