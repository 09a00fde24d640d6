"""The general paginated list of the API: {success, data: [...], pagination: {page, limit, total, totalPages}}.

The paging itself (cheap totals, fast deep pages) is ``backoffice.lists.paging``,
shared with the admin site.
"""

import math

from rest_framework.pagination import BasePagination
from rest_framework.response import Response

from backoffice.lists.paging import MAX_LIMIT, page_and_total, page_params


class EnvelopePagination(BasePagination):
    """Page/limit pagination in the contract's envelope; views may set ``default_limit``."""

    default_limit = 20

    def paginate_queryset(self, queryset, request, view=None):
        default = getattr(view, "default_limit", self.default_limit)
        self.page, self.limit = page_params(request.query_params, default_limit=default)
        rows, self.total = page_and_total(queryset, offset=(self.page - 1) * self.limit, limit=self.limit)
        return rows

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
