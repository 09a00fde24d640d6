"""The foundation's fixtures for ``test_admin_forms_submitted``: a member of staff to change, a new one to add."""

import itertools

from backoffice.tests.factories import StaffFactory

_n = itertools.count(1)

INSTANCES = {"backoffice.Staff": StaffFactory}

ADD_DATA = {
    "backoffice.Staff": lambda: {
        "email": f"added{next(_n)}@example.com",
        "first_name": "Added",
        "last_name": "Person",
        "role": "finance",
        "password1": "Brand-New-Passw0rd",
        "password2": "Brand-New-Passw0rd",
    }
}
