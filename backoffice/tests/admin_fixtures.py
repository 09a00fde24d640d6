"""The apps' admin-form fixtures, gathered for the two tests that submit every admin form.

``test_admin_forms_submitted`` posts each form with Django's test client; ``test_admin_forms_browser`` fills and saves
it in a real browser. Both walk ``admin.site``'s registry and read the same tables, which each app names in
``<app>.tests.admin_forms`` (``INSTANCES``: model label -> a callable returning a saved instance to change;
``ADD_DATA``: model label -> a callable returning the fields a valid add needs, by their inputs' names; ``ADD_QUERY``:
model label -> the query string of an add page that first asks a question, a rule's type; ``CHANGE_DATA``: model
label -> a callable returning what a change form asks on every save, even with nothing changed (a rule's reason for
its new version); ``DECISION_PAGES``: models whose change page is a decision posted to views of their own). They are
found by app name, as the admin site finds ``admin`` modules, so this foundation module imports no higher app.
"""

import importlib
import importlib.util

from django.apps import apps
from django.contrib import admin
from django.test import RequestFactory

from backoffice.choices import StaffRole
from backoffice.tests.factories import StaffFactory


def _fixture_tables() -> tuple[dict, dict, dict, dict, set]:
    # DECISION_PAGES: models whose change page is a decision (release or reject a held transaction) posted to
    # views of their own; the test client only opens it, the browser test presses each decision
    instances, add_data, add_query, change_data, decision_pages = {}, {}, {}, {}, set()
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
        change_data.update(getattr(module, "CHANGE_DATA", {}))
        decision_pages.update(getattr(module, "DECISION_PAGES", set()))
    return instances, add_data, add_query, change_data, decision_pages


INSTANCES, ADD_DATA, ADD_QUERY, CHANGE_DATA, DECISION_PAGES = _fixture_tables()
ROLES = list(StaffRole.values)


def as_role(role: str, staff=None):
    """A request of a member of staff with ``role`` (unsaved unless ``staff`` is given), for permission checks."""
    request = RequestFactory().get("/admin/")
    request.user = staff or StaffFactory.build(role=role, is_active=True)
    return request


def may(model_admin, role: str, what: str, obj=None) -> bool:
    request = as_role(role)
    if what == "add":
        return bool(model_admin.has_add_permission(request))
    return bool(model_admin.has_change_permission(request, obj))


def editable_models() -> list[str]:
    """Model labels whose admin lets some role add, or change, records."""
    return sorted(
        model._meta.label
        for model, model_admin in admin.site._registry.items()
        if any(may(model_admin, role, "add") or may(model_admin, role, "change") for role in ROLES)
    )


def model_admin_of(label: str):
    model = apps.get_model(label)
    return model, admin.site._registry[model]
