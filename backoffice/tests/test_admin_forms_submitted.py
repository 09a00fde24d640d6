"""Every add and change form of the admin site, submitted as a browser would: never a 500.

For each registered ModelAdmin and each staff role the admin lets add or change its model, the test GETs the form,
posts back what the page holds (its initial data, as a browser sends it, inlines' management forms included) and,
where a model needs more to be valid, the minimal data the app's fixture table gives. The answer is a redirect (the
save went through) or the form again with its errors, never a server error. A form whose fixture gives valid data
must save (a redirect): that is the path that broke (a read-only inline formset the admin's change message reads).

Each app names its fixtures in ``<app>.tests.admin_forms`` (``INSTANCES``: model label -> a callable returning a
saved instance to change; ``ADD_DATA``: model label -> a callable returning the fields a valid add needs;
``ADD_QUERY``: model label -> the query string of an add page that first asks a question, a rule's type). They are
found by app name, as the admin site finds ``admin`` modules, so this foundation test imports no higher app.
"""

import importlib
import importlib.util

import lxml.html
import pytest
from django.apps import apps
from django.contrib import admin
from django.test import Client, RequestFactory
from django.urls import reverse

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory

pytestmark = pytest.mark.django_db


def _fixture_tables() -> tuple[dict, dict, dict, set]:
    # DECISION_PAGES: models whose change page is a decision (release or reject a held transaction) posted to
    # views of their own, submitted by their app's tests; here the page must open
    instances, add_data, add_query, decision_pages = {}, {}, {}, set()
    for config in apps.get_app_configs():
        name = f"{config.name}.tests.admin_forms"
        try:
            found = importlib.util.find_spec(name)
        except ModuleNotFoundError:
            found = None
        if found is None:
            continue
        module = importlib.import_module(name)
        instances.update(getattr(module, "INSTANCES", {}))
        add_data.update(getattr(module, "ADD_DATA", {}))
        # a model whose add page first asks a question (a rule's type) names the answer's query string
        add_query.update(getattr(module, "ADD_QUERY", {}))
        decision_pages.update(getattr(module, "DECISION_PAGES", set()))
    return instances, add_data, add_query, decision_pages


INSTANCES, ADD_DATA, ADD_QUERY, DECISION_PAGES = _fixture_tables()
ROLES = list(StaffRole.values)


def _as(role: str, staff=None):
    request = RequestFactory().get("/admin/")
    request.user = staff or StaffFactory.build(role=role, is_active=True)
    return request


def _may(model_admin, role: str, what: str, obj=None) -> bool:
    request = _as(role)
    if what == "add":
        return bool(model_admin.has_add_permission(request))
    return bool(model_admin.has_change_permission(request, obj))


def _editable_models() -> list[str]:
    """Model labels whose admin lets some role add, or change, records."""
    return sorted(
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if any(_may(model_admin, role, "add") or _may(model_admin, role, "change") for role in ROLES)
    )


def _model_admin(label: str):
    model = apps.get_model(label)
    return model, admin.site._registry[model]


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
    assert set(_editable_models()) <= set(INSTANCES), set(_editable_models()) - set(INSTANCES)


@pytest.mark.parametrize("label", _editable_models())
def test_the_add_form_is_submitted_by_every_role_that_may_add(label, media):
    model, model_admin = _model_admin(label)
    url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_add") + ADD_QUERY.get(label, "")
    for role in ROLES:
        if not _may(model_admin, role, "add"):
            continue
        client = Client()
        client.force_login(StaffFactory(role=role))
        _submit(client, url, model, ADD_DATA[label]() if label in ADD_DATA else {})


@pytest.mark.parametrize("label", _editable_models())
def test_the_change_form_is_submitted_by_every_role_that_may_change(label, media):
    model, model_admin = _model_admin(label)
    for role in ROLES:
        staff = StaffFactory(role=role)
        obj = INSTANCES[label]()
        if not model_admin.has_change_permission(_as(role, staff), obj):
            continue
        client = Client()
        client.force_login(staff)
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
        if label in DECISION_PAGES:
            assert client.get(url).status_code == 200, url
            continue
        _submit(client, url, model, {})
