"""PEPs' fixtures for ``backoffice.tests.admin.test_admin_forms_submitted``: a PEP to change, one to add."""

import itertools

from compliance.peps.services.pep import pep_create

_n = itertools.count(1)


def _pep():
    return pep_create(actor=None, name=f"Mandla Form Dlamini {next(_n)}", category="Government Official").pep


INSTANCES = {"compliance.PEP": _pep}

ADD_DATA = {
    "compliance.PEP": lambda: {
        "name": f"Zodwa Added Nxumalo {next(_n)}",
        "category": "Government Official",
        "position": "Minister",
        "country": "SZ",
        "aliases": "Zodwa N.",
    }
}
