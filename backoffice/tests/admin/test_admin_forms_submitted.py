"""Every add and change form of the admin site, submitted as a browser would: never a 500.

For each registered ModelAdmin and each staff role the admin lets add or change its model, the test GETs the form,
posts back what the page holds (its initial data, as a browser sends it, inlines' management forms included) and,
where a model needs more to be valid, the minimal data the app's fixture table gives. The answer is a redirect (the
save went through) or the form again with its errors, never a server error. A form whose fixture gives valid data
must save (a redirect): that is the path that broke (a read-only inline formset the admin's change message reads).

Each app names its fixtures in ``<app>.tests.admin_forms``, gathered by ``admin_fixtures`` (shared with the browser
twin of this test, ``test_admin_forms_browser``).
"""

import lxml.html
import pytest
from django.test import Client
from django.urls import reverse

from backoffice.tests.admin_fixtures import (
    ADD_DATA,
    ADD_QUERY,
    CHANGE_DATA,
    DECISION_PAGES,
    INSTANCES,
    ROLES,
    as_role,
    editable_models,
    may,
    model_admin_of,
)
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


def _form_values(response, model) -> list[tuple[str, str]]:
    """What a browser submits from the page's form (``<model>_form``), with the "Save" button pressed."""
    page = lxml.html.fromstring(response.content)
    forms = page.xpath("//form[@id=$id]", id=f"{model._meta.model_name}_form")
    assert forms, f"no {model._meta.model_name}_form on {response.request['PATH_INFO']}"
    return [*forms[0].form_values(), ("_save", "Save")]


def _submit(client: Client, url: str, model, extra: dict) -> None:
    page = client.get(url)
    assert page.status_code in (200, 302), (url, page.status_code)
    if page.status_code == 302:
        return  # the admin hands "add" over to a page of its own (SARs), submitted by its app's tests
    values = _form_values(page, model)
    if extra:
        values = [(name, value) for name, value in values if name not in extra]
        for name, value in extra.items():
            values.extend((name, item) for item in (value if isinstance(value, list) else [value]))
    data = {}
    for name, value in values:
        data.setdefault(name, []).append(value)
    answer = client.post(url, data)
    assert answer.status_code != 500, (url, answer.status_code)
    if extra:
        errors = answer.content.decode()[:3000] if answer.status_code == 200 else ""
        assert answer.status_code == 302, (url, "valid data did not save", errors)
    else:
        assert answer.status_code in (200, 302), (url, answer.status_code)
        if answer.status_code == 200:
            assert b"errorlist" in answer.content or b"errornote" in answer.content, (url, "200 without errors")


def test_every_editable_model_has_its_fixture():
    assert set(editable_models()) <= set(INSTANCES), set(editable_models()) - set(INSTANCES)


@pytest.mark.parametrize("label", editable_models())
def test_the_add_form_is_submitted_by_every_role_that_may_add(label, media):
    model, model_admin = model_admin_of(label)
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add") + ADD_QUERY.get(label, "")
    for role in ROLES:
        if not may(model_admin, role, "add"):
            continue
        client = Client()
        client.force_login(StaffFactory(role=role))
        _submit(client, url, model, ADD_DATA[label]() if label in ADD_DATA else {})


@pytest.mark.parametrize("label", editable_models())
def test_the_change_form_is_submitted_by_every_role_that_may_change(label, media):
    model, model_admin = model_admin_of(label)
    for role in ROLES:
        staff = StaffFactory(role=role)
        obj = INSTANCES[label]()
        if not model_admin.has_change_permission(as_role(role, staff), obj):
            continue
        client = Client()
        client.force_login(staff)
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
        if label in DECISION_PAGES:
            assert client.get(url).status_code == 200, url
            continue
        _submit(client, url, model, CHANGE_DATA[label]() if label in CHANGE_DATA else {})
