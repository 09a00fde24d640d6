"""/admin/aml/alerts: the paginated triage list, one alert, and its status moves."""

from drf_spectacular.utils import extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action

from backoffice.api.envelope import ok
from compliance.api.serializers import alerts as s
from compliance.selectors import alerts as selectors
from compliance.services import alerts as services


class AlertViewSet(viewsets.GenericViewSet):
    """AML alerts. Only compliance roles see them: support and finance must never learn of one."""

    serializer_class = s.AlertOut
    filterset_class = selectors.AlertFilterSet
    lookup_url_kwarg = "alertId"
    lookup_value_regex = "[^/]+"
    capabilities = {"list": "alerts.read", "retrieve": "alerts.read", "status": "alerts.manage"}

    def get_queryset(self):
        return selectors.alert_list()

    @extend_schema(summary="List AML alerts", responses={200: s.AlertOut(many=True)})
    def list(self, request):
        page = self.paginate_queryset(self.filter_queryset(self.get_queryset()))
        return self.get_paginated_response(s.AlertOut(page, many=True).data)

    @extend_schema(summary="One AML alert with its history", responses={200: s.AlertDetailOut})
    def retrieve(self, request, alertId=None):
        return ok(s.AlertDetailOut(selectors.alert_get(alertId, with_events=True)).data)

    @extend_schema(
        summary="Move an alert (review, escalate, close) with a note",
        request=s.AlertStatusIn,
        responses={200: s.AlertDetailOut},
    )
    @action(detail=True, methods=["put"])
    def status(self, request, alertId=None):
        alert = selectors.alert_get(alertId)
        body = s.AlertStatusIn(data=request.data)
        body.is_valid(raise_exception=True)
        services.alert_transition(
            alert=alert, actor=request.user, to_status=body.validated_data["status"], note=body.validated_data["note"]
        )
        return ok(s.AlertDetailOut(selectors.alert_get(alertId, with_events=True)).data, message="Alert status updated")
