"""The general paginated list: {success, data: [...], pagination: {page, limit, total, totalPages}}."""

import math

from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from backoffice.errors import ValidationFailed

MAX_LIMIT = 100


def parse_positive_int(raw, name: str, default: int) -> int:
    if raw is None or raw == "":
        return default
    text = str(raw).strip()
    if not text.isdigit() or int(text) < 1:
        raise ValidationFailed(f"{name} must be a positive integer", details={name: ["Must be a positive integer."]})
    return int(text)


def page_params(request, *, default_limit: int = 20) -> tuple[int, int]:
    """(page, limit) from the query string: positive integers, limit capped at 100."""
    page = parse_positive_int(request.query_params.get("page"), "page", 1)
    limit = min(parse_positive_int(request.query_params.get("limit"), "limit", default_limit), MAX_LIMIT)
    return page, limit


class EnvelopePagination(BasePagination):
    """Page/limit pagination in the contract's envelope; views may set ``default_limit``."""

    default_limit = 20

    def paginate_queryset(self, queryset, request, view=None):
        default = getattr(view, "default_limit", self.default_limit)
        self.page, self.limit = page_params(request, default_limit=default)
        self.total = queryset.count()
        offset = (self.page - 1) * self.limit
        return list(queryset[offset : offset + self.limit])

    def get_paginated_response(self, data):
        return Response(
            {
                "success": True,
                "data": data,
                "pagination": {
                    "page": self.page,
                    "limit": self.limit,
                    "total": self.total,
                    "totalPages": math.ceil(self.total / self.limit) if self.total else 0,
                },
            }
        )

    def get_paginated_response_schema(self, schema):
        return {
            "type": "object",
            "required": ["success", "data", "pagination"],
            "properties": {
                "success": {"type": "boolean", "enum": [True]},
                "data": schema,
                "pagination": {
                    "type": "object",
                    "required": ["page", "limit", "total", "totalPages"],
                    "properties": {
                        "page": {"type": "integer", "minimum": 1},
                        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT},
                        "total": {"type": "integer"},
                        "totalPages": {"type": "integer"},
                    },
                },
            },
        }

    def get_schema_operation_parameters(self, view):
        default = getattr(view, "default_limit", self.default_limit)
        return [
            {
                "name": "page",
                "in": "query",
                "required": False,
                "schema": {"type": "integer", "minimum": 1, "default": 1},
            },
            {
                "name": "limit",
                "in": "query",
                "required": False,
                "description": f"Items per page (default {default}; values above {MAX_LIMIT} are capped).",
                "schema": {"type": "integer", "minimum": 1, "default": default},
            },
        ]
