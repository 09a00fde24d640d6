"""The OpenAPI document as the API serves it, and a check that a test's response is what it documents."""

import functools
import json

import requests
import schemathesis
from schemathesis.core.transport import Response


def document() -> dict:
    """The document rendered as /api/schema/ serves it, built without a request (no rate limiter, no database)."""
    return json.loads(_rendered())


@functools.cache
def _rendered() -> bytes:
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.renderers import OpenApiJsonRenderer

    return OpenApiJsonRenderer().render(SchemaGenerator().get_schema(request=None, public=True))


@functools.cache
def _schema():
    return schemathesis.openapi.from_dict(document())


def assert_documented(response, method: str, path: str) -> None:
    """``response`` (a DRF test client's) matches the documented status, content type and body of the operation.

    ``path`` is the document's template (``/api/v1/admin/vendors/{id}/kyc/progress/``). Raises schemathesis's
    failure group, which names the field and the schema it broke.
    """
    request = requests.Request(method=method.upper(), url=f"http://testserver{response.wsgi_request.path}").prepare()
    answer = Response(
        status_code=response.status_code,
        headers={name.lower(): [value] for name, value in response.headers.items()},
        content=response.content,
        request=request,
        elapsed=0.0,
        verify=False,
    )
    _schema()[path][method.upper()].validate_response(answer)
