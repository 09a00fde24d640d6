"""/admin/aml/sars: list, file, edit a draft, move along the workflow, return to DRAFT, export.

Only compliance roles hold the ``sars.*`` capabilities (backoffice.roles), so
support and finance get 403 on every one of these endpoints: the subject of a
report must never learn of it (tipping-off).
"""

import math

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.decorators import action
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.response import Response

from backoffice.api.pagination import EnvelopePagination
from backoffice.api.viewsets import SINGLE, ApiViewSet
from backoffice.errors import Forbidden, ValidationFailed
from compliance.casework.api.views.casework import CaseWorkViewSet, case_capabilities
from compliance.sars.api.serializers.sar import (
    SARCorrectionOut,
    SARCreatedOut,
    SARCreateIn,
    SARFiuOut,
    SARFiuResponseIn,
    SARListItemOut,
    SARReturnIn,
    SARStatusIn,
    SARStatusOut,
    SARUpdateIn,
)
from compliance.sars.choices import SARStatus
from compliance.sars.export import FORMATS
from compliance.sars.filtersets import SARFilterSet
from compliance.sars.selectors.sar import sar_get, sar_list
from compliance.sars.services import sar as services
from compliance.sars.services.sar_drafts import sar_update

TAG = ["SARs"]
SAR_REF = OpenApiParameter(
    "sarId", OpenApiTypes.STR, OpenApiParameter.PATH, description="The SAR's UUID or its human-readable sarId"
)
# The interface's rule for the people a move names: required, and only ever the caller.
NAMED_BY_MOVE = {
    SARStatus.PENDING_APPROVAL: ("reviewedBy", "reviewed_by"),
    SARStatus.SUBMITTED: ("approvedBy", "approved_by"),
}


def _is_caller(value, staff) -> bool:
    return str(value).strip().lower() == str(staff.pk).lower()


class SARListPagination(EnvelopePagination):
    """The SAR list's own shape: ``data: {sars, pagination: {totalItems, currentPage, ...}}``."""

    def get_paginated_response(self, data):
        total_pages = math.ceil(self.total / self.limit) if self.total else 0
        pagination = {
            "totalItems": self.total,
            "currentPage": self.page,
            "itemsPerPage": self.limit,
            "totalPages": total_pages,
            "hasNextPage": self.page < total_pages,
            "hasPrevPage": self.page > 1,
        }
        return Response({"success": True, "data": {"sars": data, "pagination": pagination}})

    def get_paginated_response_schema(self, schema):
        counts = ("totalItems", "currentPage", "itemsPerPage", "totalPages")
        pagination = {
            "type": "object",
            "required": [*counts, "hasNextPage", "hasPrevPage"],
            "properties": {
                **{name: {"type": "integer"} for name in counts},
                "hasNextPage": {"type": "boolean"},
                "hasPrevPage": {"type": "boolean"},
            },
        }
        return {
            "type": "object",
            "required": ["success", "data"],
            "properties": {
                "success": {"type": "boolean", "enum": [True]},
                "data": {
                    "type": "object",
                    "required": ["sars", "pagination"],
                    "properties": {"sars": schema, "pagination": pagination},
                },
            },
        }


class IgnoreFormatNegotiation(DefaultContentNegotiation):
    """``?format=`` names the export's file format here, not a DRF renderer; errors stay JSON."""

    def select_renderer(self, request, renderers, format_suffix=None):
        return renderers[0], renderers[0].media_type


class SARViewSet(ApiViewSet):
    filterset_class = SARFilterSet
    pagination_class = SARListPagination
    lookup_url_kwarg = "sarId"
    lookup_value_regex = "[^/]+"
    # which moves a role may make is decided per target state by the model's transitions
    capabilities = {
        "list": "sars.read",
        "create": "sars.file",
        "partial_update": "sars.file",
        "status": "sars.read",
        "return_to_draft": "sars.read",
        "export": "sars.read",
        # the unit's answers are the MLRO's or admin's
        "fiu_response": "sars.approve",
        "correction": "sars.file",
    }

    def get_queryset(self):
        return sar_list()

    @extend_schema(tags=TAG, summary="List SARs", responses={200: SARListItemOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), SARListItemOut)

    @extend_schema(
        tags=TAG, summary="File a SAR (starts in DRAFT)", request=SARCreateIn, responses={201: SARCreatedOut}
    )
    def create(self, request):
        data = self.input(SARCreateIn)
        filed_by = data.pop("filed_by_id", None)
        if filed_by not in (None, "") and not _is_caller(filed_by, request.user):
            raise Forbidden("filedById may only name yourself")
        sar = services.sar_create(actor=request.user, **data)
        return self.ok(SARCreatedOut(sar).data, message="SAR created", status=201)

    @extend_schema(
        tags=TAG,
        summary="Edit a SAR in DRAFT (narrative, type, date, amount, evidence); keeps every narrative version",
        parameters=[SAR_REF],
        request=SARUpdateIn,
        responses={200: SARCreatedOut},
    )
    def partial_update(self, request, sarId: str):
        sar = sar_get(ref=sarId)
        sar = sar_update(sar=sar, actor=request.user, **self.input(SARUpdateIn))
        return self.ok(SARCreatedOut(sar).data, message="SAR updated")

    @extend_schema(
        tags=TAG,
        summary="Return a SAR under review or approval to DRAFT, with the reason",
        parameters=[SAR_REF],
        request=SARReturnIn,
        responses={200: SARStatusOut},
    )
    @action(detail=True, methods=["post"], url_path="return", **SINGLE)
    def return_to_draft(self, request, sarId: str):
        sar = sar_get(ref=sarId)
        # the state (409) and the role (403) are answered before the reason they would need, as for status moves
        sar.check_return(actor=request.user)
        data = self.input(SARReturnIn)
        sar = services.sar_return(sar=sar, actor=request.user, reason=data["reason"])
        return self.ok(SARStatusOut(sar).data, message="SAR returned to draft")

    @extend_schema(
        tags=TAG,
        summary="Move a SAR along the workflow",
        parameters=[SAR_REF],
        request=SARStatusIn,
        responses={200: SARStatusOut},
    )
    @action(detail=True, methods=["put"], **SINGLE)
    def status(self, request, sarId: str):
        sar = sar_get(ref=sarId)
        data = self.input(SARStatusIn)
        target = data["status"]
        # a move outside the table (409) or the role (403) is answered before the fields it would need
        sar.check_move(actor=request.user, target=target)
        if target in NAMED_BY_MOVE:
            api_name, name = NAMED_BY_MOVE[target]
            value = data.get(name)
            if value is None or not str(value).strip():
                message = f"{api_name} is required to move a SAR to {target}"
                raise ValidationFailed(message, details={api_name: ["Required."]})
            if not _is_caller(value, request.user):
                raise Forbidden(f"{api_name} must be your own id")
        sar = services.sar_transition(
            sar=sar, actor=request.user, status=target, note=data["note"], fiu_reference=data["fiu_reference"]
        )
        return self.ok(SARStatusOut(sar).data, message="SAR status updated")

    @extend_schema(
        tags=TAG,
        summary="Record the FIU's answer to a submitted SAR (MLRO or admin): accepted, or rejected with the reason",
        parameters=[SAR_REF],
        request=SARFiuResponseIn,
        responses={200: SARFiuOut},
    )
    @action(detail=True, methods=["post"], url_path="fiu-response", **SINGLE)
    def fiu_response(self, request, sarId: str):
        sar = sar_get(ref=sarId)
        services.sar_check_fiu_response(sar=sar, actor=request.user)
        data = self.input(SARFiuResponseIn)
        sar = services.sar_fiu_response(
            sar=sar,
            actor=request.user,
            accepted=data["accepted"],
            reason=data.get("reason") or "",
            fiu_reference=data.get("fiu_reference") or "",
        )
        return self.ok(SARFiuOut(sar).data, message="FIU answer recorded")

    @extend_schema(
        tags=TAG,
        summary="File a correction of a SAR the FIU rejected: a new DRAFT naming the rejected report",
        parameters=[SAR_REF],
        request=None,
        responses={201: SARCorrectionOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def correction(self, request, sarId: str):
        correction = services.sar_correct(sar=sar_get(ref=sarId), actor=request.user)
        return self.ok(SARCorrectionOut(correction).data, message="Correction filed", status=201)

    @extend_schema(
        tags=TAG,
        summary="Download a SAR as HTML, plain text or goAML XML",
        parameters=[
            SAR_REF,
            OpenApiParameter("format", OpenApiTypes.STR, enum=[*FORMATS], default="html"),
        ],
        responses={
            (200, "text/html"): OpenApiResponse(OpenApiTypes.STR, description="Printable report"),
            (200, "text/plain"): OpenApiResponse(OpenApiTypes.STR, description="Plain-text report"),
            (200, "application/xml"): OpenApiResponse(OpenApiTypes.STR, description="goAML report XML"),
        },
    )
    @action(
        detail=True,
        methods=["get"],
        filter_backends=[],
        pagination_class=None,
        content_negotiation_class=IgnoreFormatNegotiation,
        envelope=False,  # the body is the file itself (backoffice.api.schema)
    )
    def export(self, request, sarId: str):
        fmt = request.query_params.get("format", "html") or "html"
        if fmt not in FORMATS:
            raise ValidationFailed("Invalid format. Use html or text", details={"format": [", ".join(FORMATS)]})
        body, spec = services.sar_export(sar=sar_get(ref=sarId), actor=request.user, fmt=fmt)
        response = HttpResponse(body, content_type=spec.content_type)
        response["Content-Disposition"] = f'attachment; filename="SAR-{sarId}.{spec.extension}"'
        response["Cache-Control"] = "no-store"
        return response


@extend_schema(tags=["SARs"])
class SARCaseWorkViewSet(CaseWorkViewSet):
    kind = "sar"
    lookup_url_kwarg = "sarId"
    capabilities = case_capabilities(read="sars.read", write="sars.file")

    def case(self):
        return sar_get(ref=self.kwargs["sarId"])
