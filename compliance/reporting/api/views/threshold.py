"""/admin/aml/threshold-reports: the queue, one report, the unit's answer; batches: prepare, export, submit.

Compliance officers, MLROs and admins read and prepare (``ctr.read``,
``ctr.prepare``); submitting a batch and recording the unit's answers is the
MLRO's or admin's (``ctr.submit``), never the preparer's. Support and finance
hold none of these: 403 on every endpoint (backoffice.roles).
"""

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.decorators import action

from backoffice.api.viewsets import SINGLE, ApiViewSet
from compliance.reporting.api.serializers import threshold as s
from compliance.reporting.filtersets import ThresholdReportFilterSet
from compliance.reporting.selectors import threshold as selectors
from compliance.reporting.services import threshold as services

TAG = ["Threshold reports"]


class ThresholdReportViewSet(ApiViewSet):
    filterset_class = ThresholdReportFilterSet
    lookup_url_kwarg = "reportId"
    lookup_value_regex = "[^/]+"
    # recording the unit's answer is the MLRO's or admin's: any other role is refused before the report is read
    capabilities = {"list": "ctr.read", "retrieve": "ctr.read", "fiu_response": "ctr.submit"}

    def get_queryset(self):
        return selectors.threshold_report_list()

    @extend_schema(tags=TAG, summary="List cash threshold reports", responses={200: s.ThresholdReportOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset(), s.ThresholdReportOut)

    @extend_schema(tags=TAG, summary="One cash threshold report", responses={200: s.ThresholdReportOut})
    def retrieve(self, request, reportId=None):
        return self.ok(s.ThresholdReportOut(selectors.threshold_report_get(report_id=reportId)).data)

    @extend_schema(
        tags=TAG,
        summary="Record the FIU's answer for a submitted report (MLRO or admin): accepted, or rejected with a reason",
        request=s.FiuResponseIn,
        responses={200: s.ThresholdReportOut},
    )
    @action(detail=True, methods=["post"], url_path="fiu-response", **SINGLE)
    def fiu_response(self, request, reportId=None):
        report = selectors.threshold_report_get(report_id=reportId)
        # the state (409) is answered before the body it would need
        services.report_check_answer(report=report, actor=request.user)
        data = self.input(s.FiuResponseIn)
        services.threshold_report_answer(
            report=report, actor=request.user, accepted=data["accepted"], reason=data.get("reason") or ""
        )
        return self.ok(
            s.ThresholdReportOut(selectors.threshold_report_get(report_id=reportId)).data,
            message="FIU answer recorded",
        )


class ThresholdBatchViewSet(ApiViewSet):
    lookup_url_kwarg = "batchId"
    lookup_value_regex = "[^/]+"
    capabilities = {
        "list": "ctr.read",
        "create": "ctr.prepare",
        "retrieve": "ctr.read",
        "export": "ctr.read",
        "submit": "ctr.submit",
    }

    def get_queryset(self):
        return selectors.batch_list()

    @extend_schema(tags=TAG, summary="List threshold-report batches", responses={200: s.BatchOut(many=True)})
    def list(self, request):
        return self.paged(self.get_queryset().order_by("-created_at", "-id"), s.BatchOut)

    @extend_schema(
        tags=TAG,
        summary="Prepare a batch of every PENDING and REJECTED threshold report",
        request=None,
        responses={201: s.BatchOut},
    )
    def create(self, request):
        batch = services.threshold_batch_prepare(actor=request.user)
        return self.ok(s.BatchOut(selectors.batch_get(batch_id=batch.pk)).data, message="Batch prepared", status=201)

    @extend_schema(tags=TAG, summary="One threshold-report batch", responses={200: s.BatchOut})
    def retrieve(self, request, batchId=None):
        return self.ok(s.BatchOut(selectors.batch_get(batch_id=batchId)).data)

    @extend_schema(
        tags=TAG,
        summary="Download a batch as a zip of goAML reports, one per threshold report",
        responses={(200, "application/zip"): OpenApiResponse(OpenApiTypes.BINARY, description="zip of goAML XML")},
    )
    @action(detail=True, methods=["get"], envelope=False, **SINGLE)
    def export(self, request, batchId=None):
        batch = selectors.batch_get(batch_id=batchId)
        body = services.threshold_batch_export(batch=batch, actor=request.user)
        response = HttpResponse(body, content_type="application/zip")
        response["Content-Disposition"] = f'attachment; filename="threshold-reports-{batch.pk}.zip"'
        response["Cache-Control"] = "no-store"
        return response

    @extend_schema(
        tags=TAG,
        summary="Submit a prepared batch with the FIU's reference (MLRO or admin, never its preparer)",
        request=s.BatchSubmitIn,
        responses={200: s.BatchOut},
    )
    @action(detail=True, methods=["post"], **SINGLE)
    def submit(self, request, batchId=None):
        batch = selectors.batch_get(batch_id=batchId)
        services.batch_check_submit(batch=batch, actor=request.user)
        data = self.input(s.BatchSubmitIn)
        services.threshold_batch_submit(batch=batch, actor=request.user, fiu_reference=data["fiu_reference"])
        return self.ok(s.BatchOut(selectors.batch_get(batch_id=batchId)).data, message="Batch submitted")
