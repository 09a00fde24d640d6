"""OpenAPI that tells the truth about the envelopes.

Success bodies are wrapped in ``{success, data, message?}`` once (lists
already come wrapped by the pagination class, a view may declare a whole
envelope of its own, such as ``{success, data, count}``, and views that stream
files opt out with ``envelope = False``); every operation lists the error envelope for
the statuses it can return: those every request can meet (400 from the input
checks, 404, 405, 429, 500, 503), 401/403 where a token is needed, 409 on
writes, 413/415 where a body is read, and what a view declares beyond these
in ``error_statuses`` (``{401: "Wrong credentials"}`` on a login).
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import ResolvedComponent
from rest_framework.fields import empty

ERROR_SCHEMA = {
    "type": "object",
    "required": ["success", "message", "statusCode", "error"],
    "properties": {
        "success": {"type": "boolean", "enum": [False]},
        "message": {"type": "string"},
        "statusCode": {"type": "integer"},
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"type": "string", "example": "VALIDATION_ERROR"},
                "message": {"type": "string"},
                "details": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                    "description": "Field errors of a validation failure",
                },
            },
        },
    },
}

ERROR_DESCRIPTIONS = {
    "400": "Validation failed",
    "401": "Missing or invalid token",
    "403": "Insufficient permissions",
    "404": "Not found",
    "405": "Method not allowed",
    "409": "Conflict",
    "413": "Request body too large",
    "415": "Unsupported media type",
    "429": "Rate limited",
    "500": "Internal error",
    "503": "A part of the service (database, cache) is unavailable; retry later",
}
BODY_METHODS = {"POST", "PUT", "PATCH"}


def wrap_success(schema: dict) -> dict:
    return {
        "type": "object",
        "required": ["success", "data"],
        "properties": {
            "success": {"type": "boolean", "enum": [True]},
            "data": schema,
            "message": {"type": "string"},
        },
    }


class EnvelopeAutoSchema(AutoSchema):
    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if getattr(self.view, "envelope", True):
            for code, response in responses.items():
                if not str(code).startswith("2"):
                    continue
                for media, content in (response.get("content") or {}).items():
                    if "json" not in media:
                        continue
                    schema = content.get("schema") or {}
                    if not self._is_envelope(schema):
                        content["schema"] = wrap_success(schema)
        for code, response in responses.items():
            # an error a view declared with only a description (extend_schema) is the envelope too
            if str(code)[0] in "45" and not response.get("content"):
                response["content"] = {"application/json": {"schema": ERROR_SCHEMA}}
        declared = {str(status): text for status, text in (getattr(self.view, "error_statuses", None) or {}).items()}
        for code, description in {**ERROR_DESCRIPTIONS, **declared}.items():
            if code not in declared and not self._can_answer(code):
                continue
            responses.setdefault(
                code, {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
            )
        return dict(sorted(responses.items(), key=lambda item: str(item[0])))

    def _get_serializer_field_meta(self, field, direction):
        # An answer's field whose declared fallback is None (``default=None``: the attribute may be missing,
        # as a slot's document is) answers null; drf-spectacular reads nullability from allow_null only.
        meta = super()._get_serializer_field_meta(field, direction)
        if direction == "response" and getattr(field, "default", empty) is None:
            meta["nullable"] = True
        return meta

    def _is_envelope(self, schema: dict) -> bool:
        """Whether ``schema`` is already the whole success envelope: a paginator's list or a view's own shape.

        Decided on what the schema says, through a component reference too: most bodies are references
        (``$ref`` to a serializer's or a paginated list's component), so looking only at the inline
        properties wrapped an envelope a second time.
        """
        ref = schema.get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[-1]
            try:
                schema = self.registry[(name, ResolvedComponent.SCHEMA)].schema
            except KeyError:  # not a component of this document's serializers (none is an envelope)
                return False
        return "success" in (schema.get("properties") or {})

    def _can_answer(self, code: str) -> bool:
        if code in ("401", "403"):
            return bool(self.get_auth())
        if code == "409":
            return self.method != "GET"
        if code in ("413", "415"):
            return self.method in BODY_METHODS
        return True


class BearerJWTScheme(OpenApiAuthenticationExtension):
    """Documents every principal's JWT authentication as one bearer scheme."""

    target_class = "backoffice.api.authentication.PrincipalJWTAuthentication"
    match_subclasses = True
    name = "jwtAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}


class ServiceKeyScheme(OpenApiAuthenticationExtension):
    """The payment platform's services: ``X-API-Key`` (the interface's API key), on the intake and its dry run."""

    target_class = "backoffice.api.authentication.ServiceKeyAuthentication"
    name = "serviceKey"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-API-Key"}
