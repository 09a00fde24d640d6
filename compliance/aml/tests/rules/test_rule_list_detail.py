import pytest

URL = "/api/v1/admin/aml/rules"


def test_list_is_an_array_filtered_by_enabled_and_rule_type(officer, make_rule):
    on = make_rule(isActive=True)
    off = make_rule("velocity")
    client, _ = officer
    r = client.get(URL)
    assert r.status_code == 200 and isinstance(r.json()["data"], list) and "pagination" not in r.json()
    for value, present, absent in (("1", on, off), ("true", on, off), ("0", off, on), ("false", off, on)):
        ids = {x["ruleId"] for x in client.get(URL, {"enabled": value}).json()["data"]}
        assert present["ruleId"] in ids and absent["ruleId"] not in ids
    ids = {x["ruleId"] for x in client.get(URL, {"ruleType": "velocity"}).json()["data"]}
    assert ids == {off["ruleId"]}


@pytest.mark.parametrize("params", [{"enabled": "yes"}, {"enabled": "maybe"}, {"ruleType": "magic"}])
def test_bad_filters_are_400(officer, params):
    client, _ = officer
    r = client.get(URL, params)
    assert r.status_code == 400 and r.json()["error"]["code"] == "VALIDATION_ERROR"


def test_detail_by_rule_id_and_by_uuid(officer, make_rule):
    rule = make_rule()
    client, _ = officer
    for ref in (rule["ruleId"], rule["id"]):
        data = client.get(f"{URL}/{ref}").json()["data"]
        assert data["id"] == rule["id"]
        assert set(data) >= {
            "id",
            "ruleId",
            "name",
            "description",
            "category",
            "ruleType",
            "conditions",
            "actions",
            "severity",
            "isActive",
            "priority",
            "createdAt",
            "updatedAt",
            "version",
        }


def test_versions_list_newest_first(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    client.put(f"{URL}/{rule['ruleId']}/toggle")
    versions = client.get(f"{URL}/{rule['ruleId']}/versions").json()["data"]
    assert [v["version"] for v in versions] == [2, 1] and versions[0]["snapshot"]["isActive"] is True


@pytest.mark.parametrize("role", ["support", "finance"])
def test_support_and_finance_cannot_read_rules(staff_client, make_rule, role):
    rule = make_rule()
    client, _ = staff_client(role)
    assert client.get(URL).status_code == 403
    assert client.get(f"{URL}/{rule['ruleId']}").status_code == 403


def test_missing_token_is_401(api):
    assert api.get(URL).status_code == 401


def test_methods_the_route_does_not_serve_are_405(mlro, make_rule):
    client, _ = mlro
    rule = make_rule()
    assert client.patch(f"{URL}/{rule['ruleId']}", {}, format="json").status_code == 405
    assert client.delete(f"{URL}/{rule['ruleId']}").status_code == 405
    r = client.delete("/api/v1/admin/aml/alerts")
    assert r.status_code == 405 and r.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
