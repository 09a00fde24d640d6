"""An MLRO imports a list in a real browser (chromium): uploads it, follows the progress page to the counts,
opens the list's versions with their deltas and an entry's history."""

import pytest

from backoffice.choices import StaffRole
from backoffice.tasks import dispatch
from backoffice.tests.axe import serious_violations
from backoffice.tests.browser import page, sign_in  # noqa: F401  (fixture)
from backoffice.tests.factories import PASSWORD, StaffFactory
from compliance.sanctions.models import ListVersion
from compliance.sanctions.services import background
from compliance.sanctions.tests.helpers import FILES, import_file

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_mlro_uploads_a_second_version_and_reads_its_delta(page, live_server, media, tmp_path, monkeypatch):  # noqa: F811
    # The import runs in the upload's request here, not in a thread of the test server. On SQLite the test
    # database is one shared-cache memory database, where a write to a table another connection is reading
    # fails at once ("database table is locked": a shared cache has no busy wait), so the progress page's reads
    # failed the import under load (CI). A running import's page, refreshing itself with its progress, has its
    # own test (test_admin_import); a real server's import runs on a worker.
    monkeypatch.setattr(background, "dispatch", lambda task, background=True, **rest: dispatch(task, **rest))
    import_file("UN", "un-small-v1.xml")
    mlro = StaffFactory(email="lindiwe@example.com", role=StaffRole.MLRO, first_name="Lindiwe")
    sign_in(page, live_server, mlro.email, PASSWORD)
    page.click("text=Lists and versions")
    page.wait_for_url("**/admin/compliance/sanctionslist/")
    assert "UN" in page.inner_text("#result_list")

    page.click("text=Import a file")
    page.wait_for_url("**/admin/compliance/sanctionslist/import/")
    assert serious_violations(page) == []  # WCAG 2.1 AA (axe-core): the upload form
    page.fill("input[name=list_code]", "UN")
    page.set_input_files("input[name=file]", str(FILES / "un-small-v2.xml"))
    page.click("#sanctions-import-form button[type=submit]")
    page.wait_for_url("**/sanctionslist/import/*/")
    page.wait_for_selector("[data-testid=import-status][data-status=COMPLETED]", timeout=60_000)
    counts = {key: page.inner_text(f"[data-count={key}]") for key in ("added", "changed", "removed", "unchanged")}
    assert counts == {"added": "1", "changed": "1", "removed": "1", "unchanged": "4"}
    page.screenshot(path=str(tmp_path / "import-done.png"), full_page=True)
    assert serious_violations(page) == []  # the import's answer

    page.click("text=The list and its versions")
    page.wait_for_url("**/admin/compliance/sanctionslist/*/change/")
    page.wait_for_selector("text=Versions (newest first) and their deltas")
    versions = page.inner_text("body")
    assert "Versions (newest first) and their deltas" in versions and "un-small-v2.xml" in versions
    assert ListVersion.objects.filter(sanctions_list__code="UN").count() == 2
    page.locator("a", has_text="entries added, changed, removed").first.click()
    page.wait_for_url("**/sanctionsentrychange/**")
    delta = page.inner_text("#result_list")
    assert "JABULANI SIMELANE" in delta and "MUSA KHUMALO" in delta and "SIPHO BHEKI DLAMINI" not in delta

    page.click("text=THANDI NOMSA ZWANE")
    page.wait_for_url("**/sanctionsentry/*/change/")
    page.wait_for_selector("text=History: what each version did to this entry")
    entry = page.inner_text("body")
    assert "Nomsa Zwane" in entry and "Added" in entry and "Changed" in entry  # its history, kinds in words
    page.screenshot(path=str(tmp_path / "entry-history.png"), full_page=True)
