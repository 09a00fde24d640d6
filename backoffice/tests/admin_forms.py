"""The foundation's fixtures for ``admin_fixtures``: a member of staff and a service key to change, new ones to add."""

import itertools

from backoffice.services.service_keys import service_key_create
from backoffice.tests.factories import StaffFactory

_n = itertools.count(1)


def _service_key():
    return service_key_create(name=f"platform-{next(_n)}").service_key


INSTANCES = {"backoffice.Staff": StaffFactory, "backoffice.ServiceKey": _service_key}

ADD_DATA = {
    "backoffice.ServiceKey": lambda: {"name": f"platform-added-{next(_n)}"},  # every scope is ticked to begin with
    "backoffice.Staff": lambda: {
        "email": f"added{next(_n)}@example.com",
        "first_name": "Added",
        "last_name": "Person",
        "role": "finance",
        "password1": "Brand-New-Passw0rd",
        "password2": "Brand-New-Passw0rd",
    },
}
