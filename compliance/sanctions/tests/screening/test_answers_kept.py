"""A name screened again against the same lists is answered from this process's answers, entries included; an
import (a new index) answers afresh."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from compliance.sanctions.selectors.screening import screen_name
from compliance.sanctions.tests.screening.helpers import change_entry, make_entry

pytestmark = pytest.mark.django_db


def _entry_reads(queries) -> list:
    return [q for q in queries if 'FROM "compliance_sanctionsentry"' in q["sql"]]


def test_a_name_screened_again_reads_no_entry_until_the_lists_change(settings):
    settings.SANCTIONS_INDEX_CHECK_SECONDS = 3600
    entry = make_entry("Global Shipping Trust", entry_type="ENTITY", code="OFAC")
    first = screen_name("GLOBAL SHIPPING TRUST")
    assert [hit.entry.pk for hit in first] == [entry.pk]
    with CaptureQueriesContext(connection) as again:
        second = screen_name("GLOBAL  SHIPPING   TRUST")
    assert not _entry_reads(again.captured_queries)
    assert [(h.entry.pk, h.score, h.explanation) for h in second] == [
        (h.entry.pk, h.score, h.explanation) for h in first
    ]
    change_entry(entry, name="Global Shipping Trust Ltd")
    with CaptureQueriesContext(connection) as changed:
        third = screen_name("GLOBAL SHIPPING TRUST")
    assert _entry_reads(changed.captured_queries)
    assert [hit.entry.content_hash for hit in third] == [entry.content_hash]
