"""Every operation of the OpenAPI document, fuzzed by schemathesis against the application itself.

The document is part of the product: clients generate code from it, so it must say what the API really
answers. Each staff role calls every operation (a fresh token per request: a fuzzed logout must not end
the session the next case needs) on the demo data set, path parameters get real ids as well as made-up
ones, and every answer must be no 5xx, a documented status, a documented content type and a body that
matches the documented schema.
"""

import pytest
import schemathesis
from django.apps import apps
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import override_settings
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from backoffice import tasks
from backoffice.auth import tokens
from backoffice.choices import StaffRole
from backoffice.models import Staff
from backoffice.tests.openapi import document
from backoffice.wsgi import application

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
# Bounded so that the module stays within about three minutes on two slow cores: the admin (who gets past
# every permission check) meets the coverage phase's boundary and invalid values of every parameter besides
# random fuzzing; the other roles, mostly refused, random fuzzing only.
MAX_EXAMPLES = 5
OTHER_ROLES = [StaffRole.MLRO, StaffRole.COMPLIANCE_OFFICER, StaffRole.SUPPORT, StaffRole.FINANCE]
# Path parameters that name a row: (app label, model) whose ids are offered beside generated values.
ROWS_BY_PARAMETER = {
    "alertId": ("compliance", "Alert"),
    "pepId": ("compliance", "PEP"),
    "matchId": ("compliance", "PEPMatch"),
    "ruleId": ("compliance", "AMLRule"),
    "sarId": ("compliance", "SAR"),
    "job_id": ("verification", "VerificationJob"),
}
# ``{id}`` names another thing under each prefix (the longest prefix decides)
ROWS_BY_PREFIX = {
    "/api/v1/admin/users/credit-requests/": ("kyc", "CreditRequest"),
    "/api/v1/admin/users/": ("kyc", "PlatformUser"),
    "/api/v1/admin/vendors/": ("vendors", "Vendor"),
}


def _schema(*, coverage: bool):
    config = SchemathesisConfig.from_dict(
        {
            "seed": 21,
            "phases": {"coverage": {"enabled": coverage}, "stateful": {"enabled": False}},
            "generation": {"max-examples": MAX_EXAMPLES},
        }
    )
    loaded = schemathesis.openapi.from_dict(document(), config=config)
    loaded.app = application
    loaded.hook(flatmap_path_parameters)
    return loaded


def _model_for(path: str, parameter: str):
    if parameter in ROWS_BY_PARAMETER:
        return apps.get_model(*ROWS_BY_PARAMETER[parameter])
    prefix = max((p for p in ROWS_BY_PREFIX if path.startswith(p)), key=len, default=None)
    return apps.get_model(*ROWS_BY_PREFIX[prefix]) if prefix and parameter == "id" else None


REAL = "real-row-"


def flatmap_path_parameters(context, path_parameters):
    """Half of the cases name a real row (chosen when the case runs), so found objects' answers are checked too."""
    if not path_parameters:
        return st.just(path_parameters)
    path = context.operation.path
    return st.fixed_dictionaries(
        {
            name: st.one_of(st.just(value), st.integers(0, 19).map(f"{REAL}{{}}".format))
            if _model_for(path, name)
            else st.just(value)
            for name, value in path_parameters.items()
        }
    )


def _with_real_rows(case) -> None:
    for name, value in (case.path_parameters or {}).items():
        if isinstance(value, str) and value.startswith(REAL):
            ids = list(_model_for(case.operation.path, name).objects.order_by("pk").values_list("pk", flat=True)[:20])
            if ids:
                case.path_parameters[name] = str(ids[int(value[len(REAL) :]) % len(ids)])


@pytest.fixture(scope="module")
def fuzzing(_demo_database, django_db_blocker):
    """The demo data set (seeded once, backoffice.tests.demo_data; each test's own writes are rolled back), and the
    settings the module's cases are sent under."""
    overrides = override_settings(
        MEDIA_ROOT=str(_demo_database),
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        # every case comes from one client address: the contract's limits would answer most with 429
        RATE_LIMIT_STANDARD="1000000/m",
        RATE_LIMIT_AUTH="1000000/m",
        RATE_LIMIT_BULK="1000000/m",
        LOGIN_LOCKOUT_FAILURES=1_000_000,
    )
    # a fuzzed ``?async=true`` would start a job's run in a thread with a connection of its own, which on
    # SQLite's shared in-memory database locks tables under the test's open transaction ("database table is
    # locked" in the next case): here background work runs inline, through the same task code
    inline = pytest.MonkeyPatch()
    inline.setattr(  # named by its path: the foundation's tests import no app above it
        "verification.services.jobs.dispatch", lambda task, background=False, **given: tasks.dispatch(task, **given)
    )
    with overrides, django_db_blocker.unblock():
        # requests reach the WSGI handler directly, whose end-of-request signal would close the test's
        # connection (and its transaction) on PostgreSQL: as Django's test client does, keep it open
        request_started.disconnect(close_old_connections)
        request_finished.disconnect(close_old_connections)
        try:
            yield
        finally:
            request_started.connect(close_old_connections)
            request_finished.connect(close_old_connections)
            inline.undo()


def _call_as(role: str, case) -> None:
    _with_real_rows(case)
    staff = Staff.objects.filter(role=role, is_active=True).first()
    access = tokens.issue_pair(kind=tokens.STAFF, principal_id=staff.pk, principal=staff).access
    response = case.call_and_validate(headers={"Authorization": f"Bearer {access}"}, checks=CHECKS)
    # a documented 429 would pass the checks while the operation goes untested
    assert response.status_code != 429, "rate limited: raise the limits of this module"


as_admin = _schema(coverage=True)
as_other_roles = _schema(coverage=False)


# a parameter of its own names each item after its operation too (``[GET /api/v1/...][admin]``)
@pytest.fixture(params=[StaffRole.ADMIN])
def admin(request, fuzzing):
    return request.param


@as_admin.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_the_admin_as_documented(case, admin):
    _call_as(admin, case)


@pytest.fixture(params=["other roles"])
def others(request, fuzzing):
    return OTHER_ROLES


@as_other_roles.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_each_other_role_as_documented(case, others):
    # each case sent as every other role in turn: one generated case serves four, which was most of a test's time
    # when each role drew its own (the roles are mostly refused: the answers, not the inputs, are what differ)
    for role in others:
        try:
            _call_as(role, case)
        except BaseException as failure:
            failure.add_note(f"sent as {role}")
            raise
