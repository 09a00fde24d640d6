"""Every text a PEP body carries must arrive as a JSON string: ``aliases: [5]`` is a mistake to report (400 naming the
field), never "5" stored as an alias. Checked on every text field of every PEP input, so a new one cannot slip."""

import pytest
from rest_framework import serializers

from compliance.peps.api.serializers import pep as shapes
from compliance.peps.models.pep import PEP
from compliance.peps.tests.helpers import BASE, pep_body

pytestmark = pytest.mark.django_db

INPUTS = [shapes.PEPIn, shapes.PEPUpdateIn, shapes.PEPScreenIn]


def _text_fields(serializer_class) -> list[tuple[str, bool]]:
    """(name, is a list of texts) for every text field of the body."""
    found = []
    for name, field in serializer_class().fields.items():
        if isinstance(field, serializers.ListField) and isinstance(field.child, serializers.CharField):
            found.append((name, True))
        elif isinstance(field, serializers.CharField):
            found.append((name, False))
    return found


@pytest.mark.parametrize("serializer_class", INPUTS, ids=lambda c: c.__name__)
@pytest.mark.parametrize("value", [5, 5.5, True, {"a": "b"}], ids=["int", "float", "bool", "object"])
def test_every_text_field_refuses_what_is_not_a_string(serializer_class, value):
    fields = _text_fields(serializer_class)
    assert fields
    for name, is_list in fields:
        body = {"name": "Mandla Dlamini", name: [value] if is_list else value}
        check = serializer_class(data=body)
        assert not check.is_valid(), (serializer_class.__name__, name, value)
        assert name in check.errors, (name, check.errors)


def test_an_alias_that_is_a_number_is_400_naming_aliases_and_nothing_is_written(officer_api):
    response = officer_api.post(BASE, pep_body("Sibusiso Numbers", aliases=["Sibu", 5]), format="json")
    assert response.status_code == 400, response.json()
    assert list(response.json()["error"]["details"]) == ["aliases.1"]
    assert not PEP.objects.exists()


def test_an_update_with_a_number_alias_is_400_and_the_pep_is_unchanged(officer_api):
    created = officer_api.post(BASE, pep_body("Sibusiso Numbers", aliases=["Sibu"]), format="json").json()
    pep_id = created["data"]["pep"]["id"]
    response = officer_api.put(f"{BASE}/{pep_id}", {"aliases": [5]}, format="json")
    assert response.status_code == 400, response.json()
    assert list(response.json()["error"]["details"]) == ["aliases.0"]
    assert PEP.objects.get(pk=pep_id).aliases == ["Sibu"]


def test_a_bulk_item_with_a_number_alias_fails_alone_naming_aliases(officer_api):
    peps = [pep_body("Lindiwe Strings", aliases=["Lindi"]), pep_body("Lindani Numbers", aliases=[5])]
    response = officer_api.post(f"{BASE}/bulk", {"peps": peps}, format="json")
    data = response.json()["data"]
    assert data["created"] == 1 and data["failed"] == 1
    assert data["errors"][0]["index"] == 1 and list(data["errors"][0]["details"]) == ["aliases.0"]
    assert list(PEP.objects.values_list("name", flat=True)) == ["Lindiwe Strings"]
