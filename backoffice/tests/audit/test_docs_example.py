"""The re-implementation in docs/audit-chain.md, run as written against the API's entries: a third party can check
the chain with nothing of ours but the documented rules."""

import re
from pathlib import Path

import pytest
from django.conf import settings

from backoffice.audit import audit_record
from backoffice.choices import StaffRole
from backoffice.models import AuditLog
from backoffice.tests.audit.helpers import write_entries

pytestmark = pytest.mark.django_db

DOC = Path(settings.BASE_DIR) / "docs" / "audit-chain.md"


def documented_checker() -> dict:
    [code] = re.findall(r"```python\n(.*?)```", DOC.read_text(), flags=re.S)
    namespace: dict = {}
    exec(compile(code, str(DOC), "exec"), namespace)  # the doc's own code, as a reader would paste it
    return namespace


def all_entries(client) -> list[dict]:
    entries, page = [], 1
    while True:
        body = client.get(
            "/api/v1/admin/audit-logs", {"sortBy": "sequence", "sortOrder": "asc", "page": page, "limit": 100}
        ).json()
        entries += body["data"]
        if len(body["data"]) < 100:
            return entries
        page += 1


def test_the_documented_checker_agrees_with_ours(staff_client):
    client, staff = staff_client(StaffRole.ADMIN)
    write_entries(3, actor=staff)
    audit_record(actor=None, action="x.values", object_type="t", changes={"f": 2.0, "s": "Ñoño"}, ip_address="::1")
    first_broken = documented_checker()["first_broken"]
    entries = all_entries(client)
    assert [e["sequence"] for e in entries] == [1, 2, 3, 4]
    assert first_broken(entries) is None
    AuditLog.objects.filter(sequence=2).update(changes={"n": 7})
    assert first_broken(all_entries(client)) == 2
