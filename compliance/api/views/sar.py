"""/admin/aml/sars: list, file, move along the workflow, export.

Only compliance roles hold the ``sars.*`` capabilities (backoffice.roles), so
support and finance get 403 on every one of these endpoints: the subject of a
report must never learn of it (tipping-off).
"""

import math

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.views import APIView

from backoffice.api.envelope import ok
from backoffice.api.pagination import estimated_count, page_of, page_params
from compliance import services
from compliance.api.serializers.sar import (
    SARCreatedOut,
    SARCreateIn,
    SARListItemOut,
    SARListOut,
    SARStatusIn,
    SARStatusOut,
)
from compliance.choices import SARStatus
from compliance.sar_export import FORMATS
from compliance.selectors.sar import sar_get, sar_list

TAG = ["SARs"]
SAR_REF = OpenApiParameter(
    "sarId", OpenApiTypes.STR, OpenApiParameter.PATH, description="The SAR's UUID or its human-readable sarId"
)


class SARListCreateView(APIView):
    capabilities = {"get": "sars.read", "post": "sars.file"}

    @extend_schema(
        tags=TAG,
        summary="List SARs",
        parameters=[
            OpenApiParameter("status", OpenApiTypes.STR, enum=SARStatus.values),
            OpenApiParameter("page", OpenApiTypes.INT, description="Default 1"),
            OpenApiParameter("limit", OpenApiTypes.INT, description="Default 20; values above 100 are capped"),
            OpenApiParameter(
                "sortBy", OpenApiTypes.STR, enum=["createdAt", "amountInvolved", "dateOfSuspiciousActivity", "status"]
            ),
            OpenApiParameter("sortOrder", OpenApiTypes.STR, enum=["asc", "desc"]),
            OpenApiParameter("startDate", OpenApiTypes.STR, description="Inclusive bound on createdAt"),
            OpenApiParameter("endDate", OpenApiTypes.STR, description="Inclusive bound on createdAt"),
        ],
        responses={200: SARListOut},
    )
    def get(self, request):
        page, limit = page_params(request)
        queryset = sar_list(filters=request.query_params)
        total = estimated_count(queryset)
        rows = page_of(queryset, offset=(page - 1) * limit, limit=limit)
        total_pages = math.ceil(total / limit) if total else 0
        return ok(
            {
                "sars": SARListItemOut(rows, many=True).data,
                "pagination": {
                    "totalItems": total,
                    "currentPage": page,
                    "itemsPerPage": limit,
                    "totalPages": total_pages,
                    "hasNextPage": page < total_pages,
                    "hasPrevPage": page > 1,
                },
            }
        )

    @extend_schema(
        tags=TAG, summary="File a SAR (starts in DRAFT)", request=SARCreateIn, responses={201: SARCreatedOut}
    )
    def post(self, request):
        body = SARCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        sar = services.sar_create(
            actor=request.user,
            entity_user_id=data["entityUserId"],
            suspicious_activity_type=data["suspiciousActivityType"],
            activity_description=data["activityDescription"],
            date_of_suspicious_activity=data["dateOfSuspiciousActivity"],
            amount_involved=data["amountInvolved"],
            related_transaction_ids=data["relatedTransactionIds"],
            related_alert_ids=data["relatedAlertIds"],
            filed_by_id=data.get("filedById"),
        )
        return ok(SARCreatedOut(sar).data, message="SAR created", status=201)


class SARStatusView(APIView):
    # which moves a role may make is decided per target state by the model's transitions
    capabilities = {"put": "sars.read"}

    @extend_schema(
        tags=TAG,
        summary="Move a SAR along the workflow",
        parameters=[SAR_REF],
        request=SARStatusIn,
        responses={200: SARStatusOut},
    )
    def put(self, request, sarId: str):
        sar = sar_get(ref=sarId)
        body = SARStatusIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        sar = services.sar_transition(
            sar=sar,
            actor=request.user,
            status=data["status"],
            reviewed_by=data.get("reviewedBy"),
            approved_by=data.get("approvedBy"),
            note=data.get("note", ""),
            fiu_reference=data.get("fiuReference", ""),
        )
        return ok(SARStatusOut(sar).data, message="SAR status updated")


class IgnoreFormatNegotiation(DefaultContentNegotiation):
    """``?format=`` names the export's file format here, not a DRF renderer; errors stay JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class SARExportView(APIView):
    capabilities = {"get": "sars.read"}
    content_negotiation_class = IgnoreFormatNegotiation
    envelope = False  # the body is the file itself (backoffice.api.schema)

    @extend_schema(
        tags=TAG,
        summary="Download a SAR as HTML, plain text or goAML XML",
        parameters=[
            SAR_REF,
            OpenApiParameter("format", OpenApiTypes.STR, enum=list(FORMATS), default="html"),
        ],
        responses={
            (200, "text/html"): OpenApiResponse(OpenApiTypes.STR, description="Printable report"),
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="Plain-text report"),
            (200, "application/xml"): OpenApiResponse(OpenApiTypes.STR, description="goAML report XML"),
        },
    )
    def get(self, request, sarId: str):
        fmt = request.query_params.get("format", "html") or "html"
        body, spec = services.sar_export(sar=sar_get(ref=sarId), actor=request.user, fmt=fmt)
        response = HttpResponse(body, content_type=spec.content_type)
        response["Content-Disposition"] = f'attachment; filename="SAR-{sarId}.{spec.extension}"'
        response["Cache-Control"] = "no-store"
        return response
