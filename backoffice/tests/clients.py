"""API clients for tests, signed in with a real token of any kind of principal."""

from rest_framework.test import APIClient

from backoffice.auth import tokens


def bearer_client(kind: str, principal_id) -> APIClient:
    """An API client sending a fresh access token of ``kind`` (staff, user, vendor) for ``principal_id``."""
    pair = tokens.issue_pair(kind=kind, principal_id=principal_id)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {pair.access}")
    return client
