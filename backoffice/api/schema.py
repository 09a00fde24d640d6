"""OpenAPI that tells the truth about the envelopes.

Success bodies are wrapped in ``{success, data, message?}`` (lists already
come wrapped by the pagination class, and views that stream files opt out
with ``envelope = False``); every operation lists the error envelope for
the statuses it can return.
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema

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
    "429": "Rate limited",
    "500": "Internal error",
}


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
                    # paginated lists are components named Paginated...: already the whole envelope
                    paginated = schema.get("$ref", "").rsplit("/", 1)[-1].startswith("Paginated")
                    if not paginated and "success" not in (schema.get("properties") or {}):
                        content["schema"] = wrap_success(schema)
        for code, description in ERROR_DESCRIPTIONS.items():
            if code in ("401", "403") and not self.get_auth():
                continue
            if code == "409" and self.method == "GET":
                continue
            responses.setdefault(
                code, {"description": description, "content": {"application/json": {"schema": ERROR_SCHEMA}}}
            )
        return responses


class BearerJWTScheme(OpenApiAuthenticationExtension):
    """Documents every principal's JWT authentication as one bearer scheme."""

    target_class = "backoffice.api.authentication.PrincipalJWTAuthentication"
    match_subclasses = True
    name = "jwtAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
