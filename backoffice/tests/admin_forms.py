"""The foundation's fixtures for ``admin_fixtures``: a member of staff and a service key to change, new ones to add."""

import itertools

from backoffice.services.service_keys import service_key_create
from backoffice.services.webhooks import webhook_endpoint_create
from backoffice.tests.factories import StaffFactory

_n = itertools.count(1)


def _service_key():
    return service_key_create(name=f"platform-{next(_n)}").service_key


def _webhook_endpoint():
    endpoint, _secret = webhook_endpoint_create(
        actor=None, url=f"https://platform{next(_n)}.example/hooks", event_types=["transaction.released"]
    )
    return endpoint


INSTANCES = {
    "backoffice.Staff": StaffFactory,
    "backoffice.ServiceKey": _service_key,
    "backoffice.WebhookEndpoint": _webhook_endpoint,
}

ADD_DATA = {
    "backoffice.WebhookEndpoint": lambda: {
        "url": f"https://added{next(_n)}.example/hooks",
        "events": ["transaction.released", "user.frozen"],
        "description": "Added in the form test",
    },
    # no scope is ticked to begin with (never every scope by default): the form names one
    "backoffice.ServiceKey": lambda: {"name": f"platform-added-{next(_n)}", "scopes": ["transactions.screen"]},
    "backoffice.Staff": lambda: {
        "email": f"added{next(_n)}@example.com",
        "first_name": "Added",
        "last_name": "Person",
        "role": "finance",
        "password1": "Brand-New-Passw0rd",
        "password2": "Brand-New-Passw0rd",
    },
}
