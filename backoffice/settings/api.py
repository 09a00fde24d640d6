"""Django REST framework and the OpenAPI document."""

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": ["backoffice.api.authentication.StaffJWTAuthentication"],
    "DEFAULT_PERMISSION_CLASSES": ["backoffice.api.permissions.RolePermission"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # strict JSON (depth, duplicate keys, NUL, exact numbers) and size-capped forms: backoffice.api.parsers
    "DEFAULT_PARSER_CLASSES": [
        "backoffice.api.parsers.StrictJSONParser",
        "backoffice.api.parsers.StrictMultiPartParser",
        "backoffice.api.parsers.StrictFormParser",
    ],
    "DEFAULT_FILTER_BACKENDS": ["backoffice.api.filters.FilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "backoffice.api.pagination.EnvelopePagination",
    "DEFAULT_SCHEMA_CLASS": "backoffice.api.schema.EnvelopeAutoSchema",
    "EXCEPTION_HANDLER": "backoffice.api.exceptions.exception_handler",
    "UNAUTHENTICATED_USER": None,
    "COERCE_DECIMAL_TO_STRING": False,
    "DATETIME_FORMAT": "%Y-%m-%dT%H:%M:%S.%fZ",
}

# A larger request body is read only once the request is authenticated (backoffice.http.middleware); it stays
# within what the server gathers before a thread reads anything (backoffice.http.serving.BUFFERED_BODY_BYTES).
UNAUTHENTICATED_BODY_MAX_BYTES = 64 * 1024

SPECTACULAR_SETTINGS = {
    "TITLE": "Vikela compliance back office API",
    "DESCRIPTION": (
        "Back-office API of the payment platform: SARs, AML rules and alerts, PEPs, KYC users, "
        "verification and vendor KYC. Every success is `{success: true, data, message?}`; every "
        "error is `{success: false, message, statusCode, error: {code, message, details?}}`."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # /api/docs/ loads Swagger UI from our own static files (drf-spectacular-sidecar), never from a CDN: the
    # page works offline and under the admin site's Content-Security-Policy of 'self'
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Choice sets that share a field name across resources get names of their own in the document.
    "ENUM_NAME_OVERRIDES": {
        "PartStatusEnum": ["ok", "error"],
        "AlertCloseReasonEnum": "compliance.aml.choices.CloseReason",
        # what an officer may pick by hand: the close reasons less the two a PEP match review writes
        "AlertOfficerCloseReasonEnum": "compliance.aml.choices.OFFICER_CLOSE_REASONS",
        "DocumentReviewReasonEnum": "vendors.choices.ReviewReason",
        "WebhookDeliveryStatusEnum": "backoffice.choices.DeliveryStatus",
        "SanctionsMatchStatusEnum": "compliance.sanctions.match_choices.MatchStatus",
        "SanctionsMatchDecisionEnum": ["CONFIRMED", "DISMISSED"],
        "SanctionsImportStatusEnum": "compliance.sanctions.choices.ImportStatus",
    },
}
